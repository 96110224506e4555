package config

import (
	"fmt"

	"github.com/tailscale/hujson"
)

// Snippet is the servers of a piece of JSON pasted from a README or copied
// from another client's configuration.
type Snippet struct {
	Servers map[string]Server
	// Warnings say what was changed on the way in (a renamed server, a
	// ${input:...} reference copied as written).
	Warnings []string
	// NeedsName is set when the snippet is one server without a name
	// ({"command": ...}): it was read as "server"; give it a name.
	NeedsName bool
}

// snippetPlaceholder names a single server pasted without a name.
const snippetPlaceholder = "server"

// ParseSnippet reads a pasted snippet in any of the shapes people copy:
// {"mcpServers": {...}} (Claude Desktop, Cursor, most READMEs),
// {"servers": {...}} (VS Code), a bare {"name": {...}}, or a single server
// {"command": ...} or {"url": ...}, which is named name. Every problem is
// an error with its line and column (a *ProblemsError without a file
// name): unlike an import, nothing is skipped quietly.
func ParseSnippet(data []byte, name string) (*Snippet, error) {
	l := &problemList{src: data}
	root, ok := parseTree(l, data)
	if !ok {
		return nil, l.err()
	}
	d := decoder{l}
	top, ok := d.object(&root, "")
	if !ok {
		return nil, l.err()
	}
	sn := &Snippet{Servers: map[string]Server{}}
	r := &clientReader{cf: &ClientFile{Client: ClientGeneric, Servers: sn.Servers}, src: data}
	switch snippetShape(top) {
	case shapeLists:
		for _, m := range top {
			if m.key != "mcpServers" && m.key != "servers" {
				r.warn(fmt.Sprintf("%q is not a server list; it was left out", m.key))
				continue
			}
			list, _ := d.object(m.value, fmt.Sprintf("%q", m.key))
			for _, entry := range list {
				readSnippetServer(d, r, entry)
			}
		}
	case shapeSingle:
		if name == "" {
			name, sn.NeedsName = snippetPlaceholder, true
		}
		readSnippetServer(d, r, member{key: name, keyAt: root.StartOffset, value: &root, valueAt: root.StartOffset})
	default:
		for _, entry := range top {
			readSnippetServer(d, r, entry)
		}
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	if len(sn.Servers) == 0 {
		l.add(position{1, 1}, `no servers in it: want {"mcpServers": {"name": {"command": ...}}}`)
		return nil, l.err()
	}
	sn.Warnings = r.cf.Warnings
	return sn, nil
}

// The shapes of a snippet.
const (
	shapeBare   = iota // {"name": {...}}
	shapeLists         // {"mcpServers": {...}} or {"servers": {...}}
	shapeSingle        // {"command": ...}
)

func snippetShape(top []member) int {
	shape := shapeBare
	for _, m := range top {
		switch m.key {
		case "mcpServers", "servers":
			return shapeLists
		case "command", "url", "type", "args":
			if _, isObj := m.value.Value.(*hujson.Object); !isObj {
				shape = shapeSingle
			}
		}
	}
	return shape
}

// readSnippetServer reads one entry, every problem of it recorded in d.
func readSnippetServer(d decoder, r *clientReader, m member) {
	name := sanitizeName(m.key)
	if name != m.key {
		r.warn(fmt.Sprintf(`server %q renamed %q: toolhub server names use only letters, digits, "-" and "_"`, m.key, name))
	}
	s, ok := readServer(d, name, m.keyAt, m.value, true, r.warn)
	if !ok {
		return
	}
	r.checkRefs(name, &s)
	r.cf.Servers[name] = s
}
