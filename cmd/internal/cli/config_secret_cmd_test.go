package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
)

// The literal secrets of the files imported below, and the value set later.
const (
	ghToken    = "ghp_importTest0123456789abcdefABCDEF"
	openaiKey  = "sk-proj-importTest0123456789"
	slackToken = "xoxb-1234-5678-importTestSlack"
	pplxValue  = "pplx-setLater0123456789"
	claudeFile = `{"mcpServers": {
  "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
             "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "` + ghToken + `", "LOG_LEVEL": "debug"}},
  "openai": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ` + openaiKey + `"}}
}}`
	vscodeFile = `{
  "inputs": [{"type": "promptString", "id": "perplexity-key", "description": "Perplexity API key", "password": true}],
  "servers": {
    "perplexity": {"command": "npx", "args": ["-y", "server-perplexity-ask"], "env": {"PERPLEXITY_API_KEY": "${input:perplexity-key}"}},
    "slack": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-slack"], "env": {"SLACK_BOT_TOKEN": "` + slackToken + `", "SLACK_TEAM_ID": "T01234"}}
  }
}`
)

func TestImportMovesSecretsIntoTheStore(t *testing.T) {
	home := configEnv(t)
	claude := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	vscode := filepath.Join(home, "project", ".vscode", "mcp.json")
	mustWrite(t, claude, claudeFile)
	mustWrite(t, vscode, vscodeFile)

	code, out, errOut := runConfigCmd(t, "config", "import", claude)
	if code != 0 {
		t.Fatalf("import claude: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"moved   secret github.GITHUB_PERSONAL_ACCESS_TOKEN", "moved   secret openai.Authorization", "2 added"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "moving 2 literal secrets (github.GITHUB_PERSONAL_ACCESS_TOKEN, openai.Authorization) into file ") {
		t.Errorf("stderr does not say the secrets are moved:\n%s", errOut)
	}
	code, out, errOut = runConfigCmd(t, "config", "import", vscode)
	if code != 0 || !strings.Contains(out, "moved   secret slack.SLACK_BOT_TOKEN") ||
		!strings.Contains(errOut, "set it with `toolhub config set-secret perplexity perplexity-key`") {
		t.Fatalf("import vscode: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, text := range []string{out, errOut} {
		for _, secret := range []string{ghToken, openaiKey, slackToken} {
			if strings.Contains(text, secret) {
				t.Fatalf("a secret was printed:\n%s", text)
			}
		}
	}

	cfgPath := defaultConfig(t)
	written, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{ghToken, openaiKey, slackToken, "${input:"} {
		if strings.Contains(string(written), secret) {
			t.Errorf("the config holds %q:\n%s", secret, written)
		}
	}
	for _, ref := range []string{`"${keychain:github.GITHUB_PERSONAL_ACCESS_TOKEN}"`, `"Bearer ${keychain:openai.Authorization}"`,
		`"${keychain:slack.SLACK_BOT_TOKEN}"`, `"${keychain:perplexity.perplexity-key}"`, `"LOG_LEVEL": "debug"`, `"SLACK_TEAM_ID": "T01234"`} {
		if !strings.Contains(string(written), ref) {
			t.Errorf("the config lacks %s:\n%s", ref, written)
		}
	}

	specs := serveSpecs(t, cfgPath)
	if got := specs["github"].Env["GITHUB_PERSONAL_ACCESS_TOKEN"]; got != ghToken {
		t.Errorf("github's token resolves to %d bytes, not the imported one", len(got))
	}
	if got := specs["openai"].Headers["Authorization"]; got != "Bearer "+openaiKey {
		t.Errorf("openai's Authorization resolves to %d bytes, not the imported one", len(got))
	}
	if got := specs["slack"].Env["SLACK_BOT_TOKEN"]; got != slackToken {
		t.Errorf("slack's token resolves to %d bytes, not the imported one", len(got))
	}
	wantFix := "run toolhub config set-secret perplexity perplexity-key"
	if got := specs["perplexity"].Invalid; !strings.Contains(got, wantFix) {
		t.Errorf("perplexity before its value is set: Invalid = %q; want %q", got, wantFix)
	}
	if code, out, _ := runConfigCmd(t, "config", "check"); code != 2 || !strings.Contains(out, wantFix) {
		t.Errorf("config check before the value is set: exit %d\n%s", code, out)
	}

	code, out, errOut = runWithStdin(t, pplxValue+"\n", "config", "set-secret", "perplexity", "perplexity-key")
	if code != 0 || !strings.Contains(out, "stored secret perplexity.perplexity-key (23 bytes) in file ") || strings.Contains(out+errOut, pplxValue) {
		t.Fatalf("set-secret: exit %d\n%s\n%s", code, out, errOut)
	}
	if got := serveSpecs(t, cfgPath)["perplexity"]; got.Invalid != "" || got.Env["PERPLEXITY_API_KEY"] != pplxValue {
		t.Errorf("perplexity after set-secret: Invalid %q, value set: %v", got.Invalid, got.Env["PERPLEXITY_API_KEY"] == pplxValue)
	}
	if code, out, errOut := runConfigCmd(t, "config", "check"); code != 0 {
		t.Errorf("config check after set-secret: exit %d\n%s\n%s", code, out, errOut)
	}

	if code, out, _ := runConfigCmd(t, "config", "set-secret", "--delete", "perplexity", "perplexity-key"); code != 0 || !strings.Contains(out, "deleted secret perplexity.perplexity-key") {
		t.Fatalf("set-secret --delete: exit %d\n%s", code, out)
	}
	if got := serveSpecs(t, cfgPath)["perplexity"]; !strings.Contains(got.Invalid, wantFix) {
		t.Errorf("perplexity after --delete: Invalid = %q", got.Invalid)
	}
}

// serveSpecs is what toolhub serve would start from the config at path,
// by server name.
func serveSpecs(t *testing.T, path string) map[string]hub.ServerSpec {
	t.Helper()
	cfg, err := config.LoadServe(path, config.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	store, err := daemon.OpenSecrets(path)
	if err != nil {
		t.Fatal(err)
	}
	specs := map[string]hub.ServerSpec{}
	for _, s := range cfg.ServeSpecsFrom(config.Lookup{Env: func(string) (string, bool) { return "", false }, Secrets: daemon.SecretLookup(store)}) {
		specs[s.Name] = s
	}
	return specs
}

func TestImportWritesNothingWithoutAStore(t *testing.T) {
	home := configEnv(t)
	t.Setenv(daemon.SecretsBackendEnv, "vault")
	claude := filepath.Join(home, "claude_desktop_config.json")
	mustWrite(t, claude, claudeFile)
	code, out, errOut := runConfigCmd(t, "config", "import", claude)
	if code == 0 || !strings.Contains(errOut, "nothing written") || !strings.Contains(errOut, "secret store cannot be opened") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	if _, err := os.Stat(defaultConfig(t)); !os.IsNotExist(err) {
		t.Errorf("a config was written: %v", err)
	}
	// A file without literal secrets needs no store.
	mustWrite(t, filepath.Join(home, ".cursor", "mcp.json"), cursorFile)
	if code, out, errOut := runConfigCmd(t, "config", "import", filepath.Join(home, ".cursor", "mcp.json")); code != 0 {
		t.Errorf("import without secrets: exit %d\n%s\n%s", code, out, errOut)
	}
}

func TestSetSecretRefusesBadInput(t *testing.T) {
	runCLICases(t, []cliCase{
		{name: "empty value", args: []string{"config", "set-secret", "github", "TOKEN"}, wantCode: 2,
			wantStderr: []string{"empty value: nothing stored"}},
		{name: "bad server name", args: []string{"config", "set-secret", "my server", "TOKEN"}, wantCode: 2,
			wantStderr: []string{`server name "my server"`}},
		{name: "bad secret name", args: []string{"config", "set-secret", "a}b"}, wantCode: 2,
			wantStderr: []string{`secret name "a}b"`}},
		{name: "no arguments", args: []string{"config", "set-secret"}, wantCode: 2},
		{name: "help", args: []string{"config", "set-secret", "--help"},
			wantStdout: []string{"${keychain:SERVER.NAME}", "without echo", "--delete", daemon.SecretsBackendEnv}},
	})
}

func TestSetSecretByFullName(t *testing.T) {
	configEnv(t)
	code, out, errOut := runWithStdin(t, "tok-value", "config", "set-secret", "oauth:linear")
	if code != 0 || !strings.Contains(out, "stored secret oauth:linear (9 bytes)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	store, err := daemon.OpenSecrets(defaultConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := store.Get("oauth:linear"); err != nil || v != "tok-value" {
		t.Errorf("stored %d bytes, %v", len(v), err)
	}
}

func TestConfirm(t *testing.T) {
	for _, tt := range []struct {
		name, answer string
		want         bool
	}{
		{"enter", "\n", true},
		{"end of input", "", true},
		{"y", "y\n", true},
		{"yes in capitals", "YES\n", true},
		{"n", "n\n", false},
		{"no", "no\n", false},
		{"anything else", "maybe\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			got, err := confirm(strings.NewReader(tt.answer), &out, "Move 3 secrets?")
			if err != nil || got != tt.want {
				t.Errorf("confirm(%q) = %v, %v; want %v", tt.answer, got, err, tt.want)
			}
			if out.String() != "Move 3 secrets? [Y/n] " {
				t.Errorf("asked %q", out.String())
			}
		})
	}
}

func TestSetSecretCountsItsBytes(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{name: "one byte", value: "x", want: "(1 byte)"},
		{name: "two bytes", value: "xy", want: "(2 bytes)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			configEnv(t)
			code, out, errOut := runWithStdin(t, tc.value, "config", "set-secret", "oauth:linear")
			if code != 0 || !strings.Contains(out, "stored secret oauth:linear "+tc.want) {
				t.Fatalf("exit %d, want %q\n%s\n%s", code, tc.want, out, errOut)
			}
		})
	}
}
