package desktop

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/ui"
)

// ServerJSON implements ui.ServersBackend: the entry as {"name": {...}},
// ${VAR} references as written.
func (b *Backend) ServerJSON(_ context.Context, name string) (string, error) {
	s, ok := b.config().MCPServers[name]
	if !ok {
		return "", notConfigured(name)
	}
	body, err := config.ServerJSON(s)
	if err != nil {
		return "", plainError(err)
	}
	return "{\n  " + strconv.Quote(name) + ": " + indent(body) + "\n}\n", nil
}

// ReplaceServerJSON implements ui.ServersBackend: text holds the one
// server, named or not; a different name renames it.
func (b *Backend) ReplaceServerJSON(ctx context.Context, name, text string) error {
	if _, ok := b.config().MCPServers[name]; !ok {
		return notConfigured(name)
	}
	sn, err := config.ParseSnippet([]byte(text), name)
	if err != nil {
		return plainError(err)
	}
	if len(sn.Servers) != 1 {
		return &ui.PlainError{Summary: fmt.Sprintf("The text holds %s; an edit changes one.", ui.Plural(len(sn.Servers), "server", "servers")),
			Fix: "Use Add from JSON to add more."}
	}
	newName := slices.Collect(maps.Keys(sn.Servers))[0]
	if err := config.ReplaceServer(b.config().Path, name, newName, sn.Servers[newName]); err != nil {
		return plainError(err)
	}
	return b.apply(ctx)
}

// RemoveServer implements ui.ServersBackend.
func (b *Backend) RemoveServer(ctx context.Context, name string) error {
	if _, ok := b.config().MCPServers[name]; !ok {
		return notConfigured(name)
	}
	if err := config.RemoveServer(b.config().Path, name); err != nil {
		return plainError(err)
	}
	return b.apply(ctx)
}

func notConfigured(name string) error {
	return &ui.PlainError{Summary: name + " is not in your config file.",
		Fix: "Only servers you added can be edited or removed."}
}

// indent shifts every line after the first by two spaces.
func indent(s string) string {
	out := []byte{}
	for i := 0; i < len(s); i++ {
		out = append(out, s[i])
		if s[i] == '\n' {
			out = append(out, ' ', ' ')
		}
	}
	return string(out)
}
