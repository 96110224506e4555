package desktop

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/ui"
)

// config is the configuration as the daemon last read it.
func (b *Backend) config() *config.File { return b.opts.Daemon.Config() }

// CheckServersJSON implements ui.ServersBackend: the snippet is read as
// AddServersJSON would read it, and nothing is written.
func (b *Backend) CheckServersJSON(_ context.Context, snippet, name string) (ui.SnippetCheck, error) {
	sn, err := config.ParseSnippet([]byte(snippet), name)
	var problems *config.ProblemsError
	if errors.As(err, &problems) {
		return ui.SnippetCheck{Problem: problemText(problems.Problems[0])}, nil
	}
	if err != nil {
		return ui.SnippetCheck{}, plainError(err)
	}
	return ui.SnippetCheck{Names: slices.Sorted(maps.Keys(sn.Servers)), NeedsName: sn.NeedsName, Warnings: sn.Warnings}, nil
}

// AddServersJSON implements ui.ServersBackend: the snippet's servers are
// written to the config file and started.
func (b *Backend) AddServersJSON(ctx context.Context, snippet, name string) (ui.AddResult, error) {
	sn, err := config.ParseSnippet([]byte(snippet), name)
	if err != nil {
		return ui.AddResult{}, plainError(err)
	}
	if sn.NeedsName {
		return ui.AddResult{}, &ui.PlainError{Summary: "This is one server without a name.",
			Fix: "Type a name for it above the JSON."}
	}
	for _, w := range sn.Warnings {
		b.log.Info("adding servers", "warning", w)
	}
	return b.addServers(ctx, sn.Servers, nil)
}

// ClientConfigs implements ui.ServersBackend with config.Discover.
func (b *Backend) ClientConfigs(context.Context) ([]ui.ClientConfig, error) {
	var out []ui.ClientConfig
	for _, f := range b.discover() {
		c := ui.ClientConfig{Client: clientName(f.Client), Path: f.Path, Servers: slices.Sorted(maps.Keys(f.Servers))}
		if f.Err != nil {
			c.Problem = plainError(f.Err).Error()
		}
		out = append(out, c)
	}
	return out, nil
}

// discover finds the client config files; tests replace the machine.
func (b *Backend) discover() []config.Found {
	if b.opts.Discover != nil {
		return b.opts.Discover()
	}
	return config.Discover(config.HostDiscoverEnv())
}

// ImportServers implements ui.ServersBackend.
func (b *Backend) ImportServers(ctx context.Context, path string, names []string) (ui.AddResult, error) {
	cf, err := config.ReadClientFile(path)
	if err != nil {
		return ui.AddResult{}, plainError(err)
	}
	for _, w := range cf.WarningsFor(names) {
		b.log.Info("importing servers", "file", path, "warning", w)
	}
	return b.addServers(ctx, cf.Servers, names)
}

// addServers writes servers to the config file and applies the file to the
// running hub, so that they start at once.
func (b *Backend) addServers(ctx context.Context, servers map[string]config.Server, names []string) (ui.AddResult, error) {
	path := b.config().Path
	if path == "" {
		return ui.AddResult{}, &ui.PlainError{Summary: "toolhub was started without a config file, so servers cannot be added.",
			Fix: "Start it with --config pointing at your config.json."}
	}
	plan, err := config.PlanAdd(path, servers, names)
	if err != nil {
		return ui.AddResult{}, plainError(err)
	}
	moved, err := b.moveSecrets(plan.Servers, plan.Added)
	if err != nil {
		return ui.AddResult{}, err
	}
	if err := plan.Write(); err != nil {
		return ui.AddResult{}, plainError(err)
	}
	res := ui.AddResult{Added: plan.Added, Skipped: skippedInWords(plan.Skipped), SecretsMoved: moved}
	if len(plan.Added) == 0 {
		return res, nil
	}
	return res, b.apply(ctx)
}

// moveSecrets moves the literal secrets of the named servers (tokens, keys,
// passwords in env and headers) into the secret store, leaving
// ${keychain:NAME} in their place: the config file never holds one. Without
// a store nothing is written.
func (b *Backend) moveSecrets(servers map[string]config.Server, names []string) ([]string, error) {
	if len(config.LiteralSecrets(servers, names)) == 0 {
		return nil, nil
	}
	store, err := daemon.OpenSecrets(b.config().Path)
	if err != nil {
		return nil, &ui.PlainError{Summary: "These servers hold secrets, and the secret store cannot be opened, so nothing was added.",
			Fix: "Set the secrets with toolhub config set-secret and write ${keychain:NAME} in their place.", Details: err.Error()}
	}
	moved, err := config.MoveLiteralSecrets(servers, names, store.Set)
	if err != nil {
		return nil, plainError(fmt.Errorf("nothing was added: %w", err))
	}
	return moved, nil
}

// apply makes the running hub follow the config file now, without waiting
// for the file watch.
func (b *Backend) apply(ctx context.Context) error {
	if _, err := b.opts.Daemon.Reload(ctx); err != nil {
		return plainError(fmt.Errorf("the change was saved but not applied: %w", err))
	}
	return nil
}

// skippedInWords turns config.AddServers' "name: reason" into sentences.
func skippedInWords(skipped []string) []string {
	out := make([]string, 0, len(skipped))
	for _, s := range skipped {
		name, reason, _ := strings.Cut(s, ": ")
		switch {
		case reason == "already in the config":
			out = append(out, name+" is already one of your servers.")
		case strings.HasPrefix(reason, "duplicate of "):
			out = append(out, fmt.Sprintf("%s runs the same thing as %s, which you already have.", name,
				strings.Trim(strings.TrimPrefix(reason, "duplicate of "), `"`)))
		case strings.HasPrefix(reason, "invalid: "):
			out = append(out, name+" cannot be used: "+strings.TrimPrefix(reason, "invalid: ")+".")
		default:
			out = append(out, name+" was not added: "+reason+".")
		}
	}
	return out
}

// clientName is a client as people call it.
func clientName(client string) string {
	switch client {
	case config.ClientClaudeDesktop:
		return "Claude Desktop"
	case config.ClientCursor:
		return "Cursor"
	case config.ClientVSCode:
		return "VS Code"
	case config.ClientClaudeCode:
		return "Claude Code"
	case config.ClientWindsurf:
		return "Windsurf"
	}
	return client
}

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
	if _, err := b.moveSecrets(sn.Servers, []string{newName}); err != nil {
		return err
	}
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
