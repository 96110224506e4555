package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// toolhubBinary is the toolhub binary, built once per test binary.
func toolhubBinary(t *testing.T) string { return testenv.ToolhubBinary(t) }

// writeFile writes content to name in dir and returns the path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startToolhubHTTP runs "toolhub serve --http=127.0.0.1:0" with extra
// flags as a child process and returns its endpoint URL; the child gets
// SIGINT when the test ends and must exit cleanly.
func startToolhubHTTP(t *testing.T, config string, extra ...string) string {
	t.Helper()
	return testenv.StartToolhubHTTP(t, nil, append([]string{"--config", config, "serve", "--http=127.0.0.1:0"}, extra...)...)
}

// runInspector runs the inspector's CLI (@modelcontextprotocol/inspector
// --cli, with the Node of .tools, which it needs at 22.19 or later) and
// returns the result it prints as JSON. It keeps secrets in memory and its
// catalog under a home of its own.
func runInspector(t *testing.T, args ...string) (json.RawMessage, error) {
	t.Helper()
	bin := testenv.NPMBin(t, "mcp-inspector")
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--cli", "--format", "json"}, args...)...)
	home := t.TempDir()
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "MCP_INSPECTOR_SECRET_STORE=memory",
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%w: %s", err, stderr.String())
	}
	var printed struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(out, &printed); err != nil {
		return out, fmt.Errorf("the inspector printed no JSON: %w\n%s", err, out)
	}
	if printed.Result == nil {
		return out, fmt.Errorf("the inspector printed no result:\n%s", out)
	}
	return printed.Result, nil
}
