package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/internal/testenv"
)

// startOAuthDemo runs the TypeScript SDK's example server with its demo
// authorization server (which approves every sign-in at once, issues
// one-hour tokens and no refresh tokens) and returns the MCP URL.
func startOAuthDemo(t *testing.T) string {
	t.Helper()
	node := testenv.NPMBin(t, "node")
	script := filepath.Join(testenv.RepoRoot(t), ".tools", "node_modules", "@modelcontextprotocol", "sdk",
		"dist", "esm", "examples", "server", "simpleStreamableHttp.js")
	mcpPort, authPort := testenv.FreePort(t), testenv.FreePort(t)
	cmd := exec.Command(node, script, "--oauth")
	cmd.Env = append(os.Environ(), fmt.Sprintf("MCP_PORT=%d", mcpPort), fmt.Sprintf("MCP_AUTH_PORT=%d", authPort))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // node itself serves both ports: no children to reap
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	testenv.WaitListening(t, fmt.Sprintf("127.0.0.1:%d", mcpPort), 30*time.Second)
	testenv.WaitListening(t, fmt.Sprintf("127.0.0.1:%d", authPort), 30*time.Second)
	// The demo names itself localhost: the resource must match it exactly.
	return fmt.Sprintf("http://localhost:%d/mcp", mcpPort)
}

// runWith runs the command line with g's config and browser.
func runWith(t *testing.T, g globals, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut testenv.Buffer
	g.logLevel = "warn"
	g.stdio = Stdio{In: strings.NewReader(""), Out: &out, Err: &errOut}
	args = append([]string{"--config", g.configPath}, args...)
	root := newRootCommand(&g) // its flags reset g's fields: they go as flags
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.ExecuteContext(context.Background())
	if err != nil {
		fmt.Fprintln(&errOut, "toolhub: "+err.Error())
	}
	return exitCode(err), out.String(), errOut.String()
}

// TestAuthLoginCallExpireWithTheSDKDemo signs in to the TypeScript SDK's
// OAuth demo server through toolhub auth login, calls its tool, and lets
// the token lapse: the demo issues no refresh token, so the server then
// needs sign-in, which servers and call say. No output shows the token.
func TestAuthLoginCallExpireWithTheSDKDemo(t *testing.T) {
	url := startOAuthDemo(t)
	t.Setenv(daemon.SecretsBackendEnv, "file") // the status names the file
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`{"mcpServers": {"demo": {"url": %q}}}`, url)), 0o600); err != nil {
		t.Fatal(err)
	}
	g := globals{configPath: cfg, openBrowser: testenv.ApprovingBrowser}
	var outputs []string
	mustRun := func(wantCode int, args ...string) string {
		t.Helper()
		code, out, errOut := runWith(t, g, args...)
		outputs = append(outputs, out, errOut)
		if code != wantCode {
			t.Fatalf("toolhub %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, wantCode, out, errOut)
		}
		return out + errOut
	}

	if out := mustRun(0, "servers", "--json"); !strings.Contains(out, `"state": "needs-sign-in"`) {
		t.Fatalf("before sign-in:\n%s", out)
	}
	if out := mustRun(1, "call", "demo__greet", "--args", `{"name":"toolhub"}`); !strings.Contains(out, "sign-in required: run toolhub auth login demo") {
		t.Fatalf("call before sign-in:\n%s", out)
	}
	out := mustRun(0, "auth", "login", "demo", "--timeout", "1m")
	if !strings.Contains(out, "Signed in to demo") || !strings.Contains(out, "http://localhost:") {
		t.Fatalf("login:\n%s", out)
	}
	var status authStatus
	if err := json.Unmarshal([]byte(mustRun(0, "auth", "status", "--json")), &status); err != nil {
		t.Fatal(err)
	}
	if len(status.Servers) != 1 || status.Servers[0].State != "signed-in" || status.Servers[0].Scopes[0] != "mcp:tools" ||
		!strings.Contains(status.SecretStore, filepath.Join(dir, "secrets.json")) {
		t.Fatalf("status after login: %+v", status)
	}
	if out := mustRun(0, "call", "demo__greet", "--args", `{"name":"toolhub"}`); !strings.Contains(out, "Hello, toolhub!") {
		t.Fatalf("call after sign-in:\n%s", out)
	}

	token := editStoredToken(t, cfg, "oauth:demo")
	if out := mustRun(0, "servers", "--json"); !strings.Contains(out, `"state": "needs-sign-in"`) {
		t.Fatalf("after the token lapsed:\n%s", out)
	}
	if out := mustRun(1, "call", "demo__greet", "--args", `{"name":"toolhub"}`); !strings.Contains(out, "sign-in required: run toolhub auth login demo") {
		t.Fatalf("call after the token lapsed:\n%s", out)
	}
	if out := mustRun(0, "auth", "status"); !strings.Contains(out, "needs-sign-in") {
		t.Fatalf("status after the token lapsed:\n%s", out)
	}
	mustRun(0, "auth", "logout", "demo")
	if out := mustRun(0, "auth", "status"); !strings.Contains(out, "not-using-oauth") {
		t.Fatalf("status after logout:\n%s", out)
	}
	for _, o := range outputs {
		if strings.Contains(o, token) {
			t.Fatalf("the access token shows in:\n%s", o)
		}
	}
}

// editStoredToken moves a stored token's expiry into the past and returns
// the access token.
func editStoredToken(t *testing.T, configPath, name string) string {
	t.Helper()
	store, err := daemon.OpenSecrets(configPath)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := store.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(stored), &rec); err != nil {
		t.Fatal(err)
	}
	tok := rec["token"].(map[string]any)
	tok["expires_at"] = time.Now().Add(-time.Minute).Format(time.RFC3339)
	raw, _ := json.Marshal(rec)
	if err := store.Set(name, string(raw)); err != nil {
		t.Fatal(err)
	}
	return tok["access_token"].(string)
}

func TestAuthLogout(t *testing.T) {
	withNotes := func(t *testing.T, _ string) {
		mustWrite(t, defaultConfig(t), `{"mcpServers": {"notes": {"url": "http://127.0.0.1:9/mcp"}}}`)
	}
	keep := func(server string) func(t *testing.T, home string) {
		return func(t *testing.T, home string) {
			withNotes(t, home)
			storeSecret(t, "oauth:"+server, `{"clientId": "c"}`)
		}
	}
	forgotten := func(server string) func(t *testing.T, home string) {
		return func(t *testing.T, _ string) {
			store, err := daemon.OpenSecrets(defaultConfig(t))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := store.Get("oauth:" + server); err == nil {
				t.Errorf("the sign-in of %s is still stored", server)
			}
		}
	}
	runCLICases(t, []cliCase{
		{name: "a server neither in the config nor signed in", setup: withNotes, args: []string{"auth", "logout", "nosuch"}, wantCode: 2,
			wantStderr: []string{`no enabled http server named "nosuch"`}},
		{name: "a server in the config without a sign-in", setup: withNotes, args: []string{"auth", "logout", "notes"},
			wantStdout: []string{"Not signed in to notes: nothing to sign out of\n"}},
		{name: "a server in the config with a sign-in", setup: keep("notes"), args: []string{"auth", "logout", "notes"},
			wantStdout: []string{"Signed out of notes\n"}, check: forgotten("notes")},
		{name: "a sign-in kept for a server gone from the config", setup: keep("gone"), args: []string{"auth", "logout", "gone"},
			wantStdout: []string{"Signed out of gone\n"}, check: forgotten("gone")},
	})
}

// storeSecret puts a value into the secret store beside the default config.
func storeSecret(t *testing.T, name, value string) {
	t.Helper()
	store, err := daemon.OpenSecrets(defaultConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Set(name, value); err != nil {
		t.Fatal(err)
	}
}
