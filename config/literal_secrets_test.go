package config

import (
	"errors"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestLiteralSecret(t *testing.T) {
	tests := []struct {
		name, kind, key, value string
		keep, secret           string // secret "" means: not a secret
	}{
		{"github token anywhere", "env", "GH", "ghp_0123456789abcdefghij", "", "ghp_0123456789abcdefghij"},
		{"fine-grained github token", "env", "X", "github_pat_11ABCDEFG0123456789", "", "github_pat_11ABCDEFG0123456789"},
		{"openai key under an api key name", "env", "OPENAI_API_KEY", "sk-proj-0123456789", "", "sk-proj-0123456789"},
		{"slack bot token", "env", "SLACK", "xoxb-1234-5678-abcdef", "", "xoxb-1234-5678-abcdef"},
		{"gitlab token", "env", "GL", "glpat-abcdefghij0123", "", "glpat-abcdefghij0123"},
		{"aws key id", "env", "AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE", "", "AKIAIOSFODNN7EXAMPLE"},
		{"password by name", "env", "DB_PASSWORD", "hunter2", "", "hunter2"},
		{"secret by name", "env", "CLIENT_SECRET", "abc123", "", "abc123"},
		{"bearer header", "headers", "Authorization", "Bearer ghp_0123456789abcdefghij", "Bearer ", "ghp_0123456789abcdefghij"},
		{"basic header", "headers", "Authorization", "Basic dXNlcjpwYXNz", "Basic ", "dXNlcjpwYXNz"},
		{"api key header", "headers", "X-Api-Key", "abcdef", "", "abcdef"},
		{"url under a token name", "env", "TOKEN_URL", "https://auth.example.com/token", "", ""},
		{"path under a key name", "env", "SSH_KEY", "/home/u/.ssh/id_ed25519", "", ""},
		{"windows path", "env", "SIGNING_KEY", `C:\keys\sign.pem`, "", ""},
		{"port", "env", "PORT", "8080", "", ""},
		{"number under a key name", "env", "MAX_KEY", "12", "", ""},
		{"plain setting", "env", "LOG_LEVEL", "debug", "", ""},
		{"database url", "env", "DATABASE_URL", "postgres://localhost/db", "", ""},
		{"reference", "env", "GITHUB_TOKEN", "${GITHUB_TOKEN}", "", ""},
		{"bearer reference", "headers", "Authorization", "Bearer ${keychain:a.b}", "", ""},
		{"short sk word", "env", "MODE", "sk-learn", "", ""},
		{"empty", "env", "API_KEY", "", "", ""},
		{"content type", "headers", "Content-Type", "application/json", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keep, secret, ok := literalSecret(tt.kind, tt.key, tt.value)
			if ok != (tt.secret != "") || secret != tt.secret || keep != tt.keep {
				t.Errorf("literalSecret(%s, %s) = %q, %q, %v; want %q, %q", tt.kind, tt.key, keep, secret, ok, tt.keep, tt.secret)
			}
		})
	}
}

func TestMoveLiteralSecrets(t *testing.T) {
	servers := map[string]Server{
		"github": {URL: "https://api.example.com/mcp", Headers: map[string]string{
			"Authorization": "Bearer ghp_0123456789abcdefghij", "Accept": "application/json"}},
		"openai": {Command: "openai-mcp", Env: map[string]string{"OPENAI_API_KEY": "sk-proj-0123456789", "PORT": "9000"}},
		"other":  {Command: "x", Env: map[string]string{"API_KEY": "left-alone"}},
	}
	original := servers["openai"].Env
	if got := LiteralSecrets(servers, []string{"github", "openai"}); !slices.Equal(got, []string{"github.Authorization", "openai.OPENAI_API_KEY"}) {
		t.Fatalf("LiteralSecrets = %v", got)
	}
	stored := fakeSecrets{}
	moved, err := MoveLiteralSecrets(servers, []string{"github", "openai"}, func(name, value string) error {
		stored[name] = value
		return nil
	})
	if err != nil || !slices.Equal(moved, []string{"github.Authorization", "openai.OPENAI_API_KEY"}) {
		t.Fatalf("moved %v, %v", moved, err)
	}
	if got := servers["github"].Headers["Authorization"]; got != "Bearer ${keychain:github.Authorization}" {
		t.Errorf("Authorization = %q", got)
	}
	if got := servers["openai"].Env; got["OPENAI_API_KEY"] != "${keychain:openai.OPENAI_API_KEY}" || got["PORT"] != "9000" {
		t.Errorf("openai env = %v", got)
	}
	if original["OPENAI_API_KEY"] != "sk-proj-0123456789" {
		t.Error("the caller's own map was changed")
	}
	if servers["other"].Env["API_KEY"] != "left-alone" {
		t.Error("a server not named was changed")
	}
	if !maps.Equal(stored, fakeSecrets{"github.Authorization": "ghp_0123456789abcdefghij", "openai.OPENAI_API_KEY": "sk-proj-0123456789"}) {
		t.Errorf("stored %v", stored)
	}
	_, err = MoveLiteralSecrets(servers, nil, func(string, string) error { return errors.New("locked") })
	if err == nil || !strings.Contains(err.Error(), "other.API_KEY") {
		t.Errorf("a failing store: %v", err)
	}
}

// writtenRef is all a moved value may still say.
var writtenRef = regexp.MustCompile(`^((?i:bearer|token|basic) )?\$\{keychain:[^}]+\}$`)

// FuzzMoveLiteralSecrets checks that a moved value reads back exactly
// through its reference, and that no moved secret stays written.
func FuzzMoveLiteralSecrets(f *testing.F) {
	f.Add("env", "GITHUB_TOKEN", "ghp_0123456789abcdefghij")
	f.Add("headers", "Authorization", "Bearer sk-0123456789abc")
	f.Add("headers", "Authorization", "  token  abc ")
	f.Add("env", "PORT", "8080")
	f.Fuzz(func(t *testing.T, kind, key, value string) {
		if kind != "headers" {
			kind = "env"
		}
		s := Server{Command: "x", Env: map[string]string{key: value}}
		if kind == "headers" {
			s = Server{URL: "https://x", Headers: map[string]string{key: value}}
		}
		if !isSecretName(SecretName("srv", key)) {
			t.Fatalf("SecretName(srv, %q) = %q cannot be referenced", key, SecretName("srv", key))
		}
		servers := map[string]Server{"srv": s}
		stored := fakeSecrets{}
		moved, err := MoveLiteralSecrets(servers, nil, func(name, v string) error { stored[name] = v; return nil })
		if err != nil {
			t.Fatal(err)
		}
		got := servers["srv"].Env[key]
		if kind == "headers" {
			got = servers["srv"].Headers[key]
		}
		if len(moved) == 0 {
			if got != value {
				t.Fatalf("a value that was not moved changed: %q -> %q", value, got)
			}
			return
		}
		back, missing, err := expand(got, Lookup{Secrets: stored})
		if err != nil || len(missing) > 0 {
			t.Fatalf("the written %q does not expand: %v %v", got, err, missing)
		}
		want := strings.TrimSpace(value)
		if m := authScheme.FindStringSubmatch(want); m != nil {
			want = m[1] + " " + m[2]
		}
		if back != want {
			t.Fatalf("%q reads back as %q", value, back)
		}
		if !writtenRef.MatchString(got) {
			t.Fatalf("more than a scheme and the reference stays written: %q", got)
		}
	})
}

func TestImportWarnsAboutTokensInArgs(t *testing.T) {
	for _, tt := range []struct {
		name string
		args string
		warn bool
	}{
		{"token argument", `["--token", "ghp_0123456789abcdefghij"]`, true},
		{"flag with a token", `["--api-key=sk-0123456789abcdef"]`, true},
		{"plain arguments", `["-y", "@modelcontextprotocol/server-github", "--port=8080"]`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cf, err := parseClientFile("c.json", ClientGeneric, []byte(`{"mcpServers": {"s": {"command": "x", "args": `+tt.args+`}}}`))
			if err != nil {
				t.Fatal(err)
			}
			warned := slices.ContainsFunc(cf.Warnings, func(w string) bool { return strings.Contains(w, "looks like an access token") })
			if warned != tt.warn {
				t.Errorf("warnings %q; want a token warning: %v", cf.Warnings, tt.warn)
			}
			for _, w := range cf.Warnings {
				if strings.Contains(w, "0123456789abcdef") {
					t.Errorf("a warning quotes the token: %s", w)
				}
			}
		})
	}
}
