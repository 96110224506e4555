package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// The MCP clients whose configuration files toolhub can read.
const (
	ClientClaudeDesktop = "claude-desktop"
	ClientCursor        = "cursor"
	ClientVSCode        = "vscode"
	ClientClaudeCode    = "claude-code"
	ClientWindsurf      = "windsurf"
	ClientGeneric       = "mcp" // any other file with an "mcpServers" object
)

// ClientFile is the servers read from another MCP client's configuration.
type ClientFile struct {
	Client  string // one of the Client* constants
	Path    string
	Servers map[string]Server
	// Warnings say what was changed or left out: renamed servers, skipped
	// invalid entries, keys toolhub does not use, VS Code ${input:...} turned
	// into ${keychain:SERVER.ID} references.
	Warnings []string
	// Renamed maps a server's name in the file to the name it was given
	// here, for each server whose name toolhub cannot use.
	Renamed map[string]string
	// warnedAbout names the server (as named here) each warning is about;
	// "" for a warning about the file.
	warnedAbout []string
}

// WarningsFor returns the warnings about the file and about the named
// servers; every warning when names is empty.
func (cf *ClientFile) WarningsFor(names []string) []string {
	return keepWarnings(cf.Warnings, cf.warnedAbout, func(server string) bool { return slices.Contains(names, server) }, len(names) == 0)
}

// keepWarnings keeps the warnings about the file and those whose server
// keep accepts; all of them when all is set.
func keepWarnings(warnings, about []string, keep func(server string) bool, all bool) []string {
	if all || len(about) != len(warnings) {
		return warnings
	}
	var out []string
	for i, w := range warnings {
		if about[i] == "" || keep(about[i]) {
			out = append(out, w)
		}
	}
	return out
}

// ReadClientFile reads a Claude Desktop or Cursor file ("mcpServers"), a
// VS Code mcp.json ("servers") or settings.json ("mcp": {"servers"}), a
// Windsurf mcp_config.json, or Claude Code's ~/.claude.json (top-level
// "mcpServers" and each "projects.<path>.mcpServers") or .mcp.json. An
// entry that toolhub cannot use is skipped with a warning; only an
// unreadable file or one without any server list is an error.
func ReadClientFile(path string) (*ClientFile, error) {
	return readClientFile(path, guessClient(path))
}

func readClientFile(path, client string) (*ClientFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return parseClientFile(path, client, data)
}

// parseClientFile decodes a client's file; client is a guess that the
// file's shape may correct (a "servers" object means VS Code).
func parseClientFile(path, client string, data []byte) (*ClientFile, error) {
	l := &problemList{file: path, src: data}
	root, ok := parseTree(l, data)
	if !ok {
		return nil, l.err()
	}
	top, ok := decoder{l}.object(&root, "")
	if !ok {
		return nil, l.err()
	}
	cf := &ClientFile{Client: client, Path: path, Servers: map[string]Server{}}
	r := clientReader{cf: cf, src: data}
	if !r.readLists(top) {
		return nil, fmt.Errorf(`%s: no MCP servers: want an "mcpServers" or "servers" object`, path)
	}
	return cf, nil
}

// readLists finds the server lists in the top-level members of the file.
func (r *clientReader) readLists(top []member) bool {
	found := false
	for _, m := range top {
		switch m.key {
		case "mcpServers":
			found = true
			r.readList(m.value, "")
		case "servers":
			found = true
			r.cf.Client = ClientVSCode
			r.readList(m.value, "")
		case "mcp": // VS Code settings.json
			if v := m.value.Find("/servers"); v != nil {
				found = true
				r.cf.Client = ClientVSCode
				r.readList(v, "")
			}
		case "projects":
			found = r.readProjects(m.value) || found
		}
	}
	return found
}

// readProjects reads Claude Code's per-project server lists.
func (r *clientReader) readProjects(v *hujson.Value) bool {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return false
	}
	found := false
	for i := range obj.Members {
		project := obj.Members[i].Name.Value.(hujson.Literal).String()
		if list := obj.Members[i].Value.Find("/mcpServers"); list != nil {
			found = true
			r.cf.Client = ClientClaudeCode
			r.readList(list, project)
		}
	}
	return found
}

// guessClient names the client from a file's usual path.
func guessClient(path string) string {
	slashed := filepath.ToSlash(path)
	base := strings.ToLower(filepath.Base(path))
	parent := strings.ToLower(filepath.Base(filepath.Dir(path)))
	switch {
	case base == "claude_desktop_config.json":
		return ClientClaudeDesktop
	case base == ".claude.json" || base == ".mcp.json":
		return ClientClaudeCode
	case base == "mcp_config.json" && strings.Contains(strings.ToLower(slashed), "windsurf"):
		return ClientWindsurf
	case parent == ".cursor":
		return ClientCursor
	case parent == ".vscode" || strings.Contains(slashed, "Code/User/"):
		return ClientVSCode
	}
	return ClientGeneric
}
