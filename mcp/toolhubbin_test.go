package mcp

import (
	"context"
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

// runInspector runs the inspector CLI from .tools/run and returns its stdout.
func runInspector(t *testing.T, args ...string) (string, error) {
	t.Helper()
	bin := testenv.NPMBin(t, "mcp-inspector-cli")
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--cli"}, args...)...)
	cmd.Dir = filepath.Join(testenv.RepoRoot(t), ".tools", "run")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%w: %s", err, stderr.String())
	}
	return string(out), nil
}
