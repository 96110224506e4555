package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// run invokes the command line as a user would and returns its exit status
// and output.
func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut testenv.Buffer
	code = Main(context.Background(), args, Stdio{In: strings.NewReader(""), Out: &out, Err: &errOut})
	return code, out.String(), errOut.String()
}

func everythingConfig(t *testing.T) string {
	t.Helper()
	bin := testenv.NPMBin(t, "mcp-server-everything")
	fsBin := testenv.NPMBin(t, "mcp-server-filesystem")
	dir := t.TempDir()
	cfg := fmt.Sprintf(`{"mcpServers": {
  "everything": {"command": %q, "args": ["stdio"]},
  "fs": {"command": %q, "args": [%q]}
}}`, bin, fsBin, dir)
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCallCommand(t *testing.T) {
	cfg := everythingConfig(t)
	cases := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string
	}{
		{"sum with --args", []string{"call", "everything__get-sum", "--args", `{"a":2,"b":3}`}, 0, "5", ""},
		{"sum with --arg", []string{"call", "everything__get-sum", "--arg", "a=2", "--arg", "b=3"}, 0, "5", ""},
		{"string kept as text", []string{"call", "everything__echo", "--arg", "message=42"}, 0, "Echo: 42", ""},
		{"whole result as json", []string{"call", "everything__get-sum", "--args", `{"a":1,"b":1}`, "--json"}, 0, `"content"`, ""},
		{"unknown tool suggests", []string{"call", "everything__get-summ", "--args", `{}`}, 2, "", "everything__get-sum"},
		{"invalid arguments name the field", []string{"call", "everything__get-sum", "--args", `{"a":"two","b":3}`}, 2, "", "/a"},
		{"args not an object", []string{"call", "everything__get-sum", "--args", `[1,2]`}, 2, "", "JSON object"},
		{"tool reports an error", []string{"call", "fs__read_text_file", "--arg", "path=/etc/passwd"}, 1, "denied", ""},
		{"missing tool name", []string{"call"}, 2, "", "SERVER__TOOL for a catalog tool, the bare name for one of toolhub's own"},
		{"arguments given as a word", []string{"call", "everything__get-sum", `{"a":2,"b":3}`}, 2, "", "give the tool's arguments with --args"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"--config", cfg}, tc.args...)...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.wantCode, stdout, stderr)
			}
			if !strings.Contains(stdout, tc.wantStdout) {
				t.Errorf("stdout %q lacks %q", stdout, tc.wantStdout)
			}
			if !strings.Contains(stderr, tc.wantStderr) {
				t.Errorf("stderr %q lacks %q", stderr, tc.wantStderr)
			}
		})
	}
}

func TestServersAndToolsCommands(t *testing.T) {
	cfg := everythingConfig(t)
	code, stdout, stderr := run(t, "--config", cfg, "servers")
	if code != 0 || !strings.Contains(stdout, "everything") || !strings.Contains(stdout, "ready") {
		t.Fatalf("servers: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = run(t, "--config", cfg, "tools", "--server", "fs", "--json")
	if code != 0 || !strings.Contains(stdout, `"fs__read_text_file"`) || strings.Contains(stdout, "everything__") {
		t.Fatalf("tools --server fs: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, _, stderr = run(t, "--config", cfg, "tools", "--server", "nope")
	if code != 2 || !strings.Contains(stderr, `no server named "nope"`) {
		t.Fatalf("tools --server nope: exit %d, stderr %s", code, stderr)
	}
}

// TestToolsOfAServerThatFailedSayWhy: the tools of a server that could not
// start are not an empty list but the reason.
func TestToolsOfAServerThatFailedSayWhy(t *testing.T) {
	dir := t.TempDir()
	quoted, _ := json.Marshal(dir)
	cfg := filepath.Join(dir, "c.json")
	mustWrite(t, cfg, `{"mcpServers": {"bad": {"command": `+string(quoted)+`}}}`)
	code, stdout, stderr := run(t, "--config", cfg, "tools", "--server", "bad")
	if code != 1 || !strings.Contains(stderr, "server bad has failed") || !strings.Contains(stderr, "is a folder, not a program") {
		t.Fatalf("tools --server bad: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}
