package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
)

// serverKey is the name toolhub is listed under in client configurations.
const serverKey = "toolhub"

// Snippet is one ready-to-paste piece of client configuration.
type Snippet struct {
	Title string // where it goes, e.g. "VS Code (.vscode/mcp.json)"
	Text  string
}

// stdioEntry is an mcpServers entry that starts toolhub as a child process.
type stdioEntry struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// httpEntry is an entry that reaches toolhub's HTTP endpoint.
type httpEntry struct {
	Type    string            `json:"type"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers,omitempty"`
}

// StdioSnippets are the client configurations that start toolhub over
// stdio: command is the absolute path of the toolhub binary, args its
// arguments (["serve"], plus "--config", FILE when one was given).
func StdioSnippets(command string, args []string) []Snippet {
	entry := map[string]stdioEntry{serverKey: {Command: command, Args: args}}
	return []Snippet{{
		Title: "Claude Desktop, Cursor, Windsurf (mcpServers JSON), over stdio",
		Text: indentJSON(struct {
			MCPServers map[string]stdioEntry `json:"mcpServers"`
		}{entry}),
	}}
}

// HTTPSnippets are the client configurations that reach toolhub's HTTP
// endpoint at url; token is the bearer token, "" when authentication is off.
func HTTPSnippets(url, token string) []Snippet {
	entry := map[string]httpEntry{serverKey: {Type: "http", URL: url, Headers: authHeaders(token)}}
	claude := "claude mcp add --transport http " + serverKey + " " + shellQuote(url)
	if token != "" {
		claude += " --header " + shellQuote("Authorization: Bearer "+token)
	}
	return []Snippet{
		{
			Title: "Claude Desktop, Cursor, Claude Code .mcp.json (mcpServers JSON), over HTTP",
			Text: indentJSON(struct {
				MCPServers map[string]httpEntry `json:"mcpServers"`
			}{entry}),
		},
		{
			Title: "VS Code (.vscode/mcp.json)",
			Text: indentJSON(struct {
				Servers map[string]httpEntry `json:"servers"`
			}{entry}),
		},
		{Title: "Claude Code (command line)", Text: claude},
	}
}

// FormatSnippets renders snippets as titled blocks separated by blank lines.
func FormatSnippets(snippets []Snippet) string {
	var b strings.Builder
	for i, s := range snippets {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(s.Title + ":\n" + s.Text + "\n")
	}
	return b.String()
}

func authHeaders(token string) map[string]string {
	if token == "" {
		return nil
	}
	return map[string]string{"Authorization": "Bearer " + token}
}

// indentJSON renders v with two-space indentation, leaving & < > as they are.
func indentJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimRight(buf.String(), "\n")
}

// shellQuote quotes s for a POSIX shell when it holds anything but safe
// characters.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
