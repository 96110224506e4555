package desktopmain

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/cmd/internal/desktop"
	"github.com/toolhub/toolhub/mcp"
	"github.com/toolhub/toolhub/ui"
)

// serveHTTP serves the daemon's MCP surface on f.httpAddr with the user's
// bearer token and tells the backend what to show; the returned function
// stops the server and waits for it.
func serveHTTP(ctx context.Context, d *daemon.Daemon, f flags, backend *desktop.Backend, log *slog.Logger) func() {
	token, err := loadToken()
	if err != nil {
		backend.SetEndpoint(ui.Endpoint{State: "not serving: " + err.Error()})
		return func() {}
	}
	srv, err := d.MCP().ListenHTTP(mcp.HTTPOptions{Addr: f.httpAddr, Token: token})
	if err != nil {
		backend.SetEndpoint(ui.Endpoint{URL: "http://" + f.httpAddr + mcp.DefaultHTTPPath, State: "not serving: " + err.Error()})
		return func() {}
	}
	backend.SetEndpoint(ui.Endpoint{URL: srv.URL(), State: "listening", Snippets: clientSnippets(srv.URL(), token, f.config)})
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ctx); err != nil {
			log.Warn("the MCP endpoint stopped", "err", err)
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

func loadToken() (string, error) {
	file, err := mcp.DefaultTokenFile()
	if err != nil {
		return "", err
	}
	return mcp.LoadOrCreateToken(file)
}

// clientSnippets are the four copy buttons of the header.
func clientSnippets(url, token, configPath string) []ui.ClientSnippet {
	http := mcp.HTTPSnippets(url, token) // mcpServers JSON, VS Code, claude mcp add
	out := []ui.ClientSnippet{}
	if stdio := mcp.StdioSnippets(toolhubBinary(), serveArgs(configPath)); len(stdio) > 0 {
		out = append(out, ui.ClientSnippet{Client: "Claude Desktop", Text: stdio[0].Text})
	}
	if len(http) == 3 {
		out = append(out,
			ui.ClientSnippet{Client: "VS Code", Text: http[1].Text},
			ui.ClientSnippet{Client: "Cursor", Text: http[0].Text},
			ui.ClientSnippet{Client: "claude mcp add", Text: http[2].Text})
	}
	return out
}

// toolhubBinary is the headless toolhub beside this binary, else "toolhub"
// on the PATH: Claude Desktop starts it over stdio with the same files.
func toolhubBinary() string {
	exe, err := os.Executable()
	if err == nil {
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		beside := filepath.Join(filepath.Dir(exe), "toolhub")
		if _, err := os.Stat(beside); err == nil {
			return beside
		}
	}
	return "toolhub"
}

func serveArgs(configPath string) []string {
	args := []string{"serve"}
	if configPath != "" {
		if abs, err := filepath.Abs(configPath); err == nil {
			args = append(args, "--config", abs)
		}
	}
	return args
}
