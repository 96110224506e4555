package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// fakeSecrets is a Secrets over a fixed map; the name "broken" fails as
// an unreadable store does.
type fakeSecrets map[string]string

func (f fakeSecrets) Get(name string) (string, error) {
	if name == "broken" {
		return "", errors.New("keychain did not answer")
	}
	v, ok := f[name]
	if !ok {
		return "", fmt.Errorf("secret %q: %w", name, ErrSecretNotSet)
	}
	return v, nil
}

func TestExpandSecrets(t *testing.T) {
	lk := Lookup{
		Env:     fakeEnv(map[string]string{"HOME": "/home/u"}),
		Secrets: fakeSecrets{"github.GITHUB_TOKEN": "ghp_abc", "oauth:linear": "tok", "tricky": "${HOME}"},
	}
	tests := []struct {
		name        string
		in          string
		want        string
		wantMissing string // the messages of the missing references, joined by "|"
		wantErr     string
	}{
		{"whole value", "${keychain:github.GITHUB_TOKEN}", "ghp_abc", "", ""},
		{"bearer header", "Bearer ${keychain:github.GITHUB_TOKEN}", "Bearer ghp_abc", "", ""},
		{"with a variable", "${HOME}:${keychain:oauth:linear}", "/home/u:tok", "", ""},
		{"secret values are not expanded again", "${keychain:tricky}", "${HOME}", "", ""},
		{"not set", "${keychain:github.OTHER}", "", `secret "github.OTHER" is not set: run toolhub config set-secret github OTHER`, ""},
		{"not set twice reported once", "${keychain:a}${keychain:a}", "", `secret "a" is not set: run toolhub config set-secret a`, ""},
		{"unreadable store", "${keychain:broken}", "", `secret "broken" cannot be read: keychain did not answer`, ""},
		{"empty name", "${keychain:}", "", "", "not a secret reference"},
		{"space in name", "${keychain:a b}", "", "", "not a secret reference"},
		{"default is not supported", "${keychain:a:-b}", "", "", "no default"},
		{"unterminated", "${keychain:a", "", "", "unterminated"},
		{"$${ is a literal", "$${HOME}", "${HOME}", "", ""},
		{"$${ beside a reference", "${HOME}/$${keychain:x}", "/home/u/${keychain:x}", "", ""},
		{"$${ needs no closing brace", "cost: $${", "cost: ${", "", ""},
		{"a lone $ before a reference stays", "$ ${HOME}", "$ /home/u", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, missing, err := expand(tt.in, lk)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v; want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var msgs []string
			for _, m := range missing {
				msgs = append(msgs, m.message())
			}
			if strings.Join(msgs, "|") != tt.wantMissing {
				t.Errorf("missing = %q; want %q", msgs, tt.wantMissing)
			}
			if len(missing) == 0 && got != tt.want {
				t.Errorf("expand = %q; want %q", got, tt.want)
			}
		})
	}
}

func TestSecretNamesAndCommands(t *testing.T) {
	tests := []struct{ server, key, name, command string }{
		{"github", "GITHUB_TOKEN", "github.GITHUB_TOKEN", "toolhub config set-secret github GITHUB_TOKEN"},
		{"gh", "Authorization", "gh.Authorization", "toolhub config set-secret gh Authorization"},
		{"perplexity", "api key", "perplexity.api-key", "toolhub config set-secret perplexity api-key"},
		{"a", "b.c", "a.b.c", "toolhub config set-secret a b.c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SecretName(tt.server, tt.key); got != tt.name {
				t.Errorf("SecretName = %q; want %q", got, tt.name)
			}
			if got := SetSecretCommand(tt.name); got != tt.command {
				t.Errorf("SetSecretCommand = %q; want %q", got, tt.command)
			}
			if !isSecretName(tt.name) {
				t.Errorf("%q is not usable in a reference", tt.name)
			}
		})
	}
	if got := SetSecretCommand("oauth:linear"); got != "toolhub config set-secret oauth:linear" {
		t.Errorf("SetSecretCommand(oauth:linear) = %q", got)
	}
}

func TestMissingSecretDisablesOnlyItsServer(t *testing.T) {
	src := `{"mcpServers": {
  "github": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${keychain:github.GITHUB_TOKEN}"}},
  "linear": {"command": "linear-mcp", "env": {"LINEAR_API_KEY": "${keychain:linear.LINEAR_API_KEY}"}}
}}`
	f, err := ParseServe("c.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	lk := Lookup{Env: fakeEnv(nil), Secrets: fakeSecrets{"linear.LINEAR_API_KEY": "lin_value"}}
	specs := f.ServeSpecsFrom(lk)
	if len(specs) != 2 {
		t.Fatalf("%d specs", len(specs))
	}
	gh, lin := specs[0], specs[1]
	want := `c.json:2:81: server "github": headers.Authorization: secret "github.GITHUB_TOKEN" is not set: run toolhub config set-secret github GITHUB_TOKEN`
	if gh.Invalid != want || gh.Headers != nil {
		t.Errorf("github: Invalid = %q, headers %v; want %q and no headers", gh.Invalid, gh.Headers, want)
	}
	if lin.Invalid != "" || lin.Env["LINEAR_API_KEY"] != "lin_value" {
		t.Errorf("linear: Invalid = %q, env resolved: %v", lin.Invalid, lin.Env["LINEAR_API_KEY"] == "lin_value")
	}
	_, err = f.SpecsFrom(lk)
	if err == nil || err.Error() != want {
		t.Errorf("SpecsFrom = %v; want the one problem %q", err, want)
	}
	if _, err := f.Specs(fakeEnv(nil)); err == nil || !strings.Contains(err.Error(), "no secret store is open") {
		t.Errorf("Specs without secrets = %v", err)
	}
}

func FuzzExpandSecrets(f *testing.F) {
	for _, s := range []string{"${keychain:a}", "Bearer ${keychain:gh.T}", "${keychain:}", "${keychain:a:-b}", "${A}${keychain:b}", "${keychain:${A}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		none := Lookup{Env: func(string) (string, bool) { return "", false }, Secrets: fakeSecrets{}}
		all := Lookup{Env: func(string) (string, bool) { return "${", true }, Secrets: everySecret{}}
		_, missing, err := expand(s, none)
		_, missing2, err2 := expand(s, all)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("syntax verdict depends on values: %v vs %v", err, err2)
		}
		if err2 == nil && len(missing2) != 0 {
			t.Fatalf("missing %v with everything set", missing2)
		}
		for _, m := range missing {
			ref := "${" + m.name
			if m.secret {
				ref = "${keychain:" + m.name
			}
			if !strings.Contains(s, ref) {
				t.Fatalf("missing %q is not a reference in %q", m.name, s)
			}
		}
	})
}

// everySecret has a value, "${", for every name.
type everySecret struct{}

func (everySecret) Get(string) (string, error) { return "${", nil }
