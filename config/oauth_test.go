package config

import (
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

func TestWithOAuth(t *testing.T) {
	src := `{"mcpServers": {
  "notes": {"url": "https://notes.example.com/mcp",
            "oauth": {"clientId": "c1", "clientSecret": "${NOTES_SECRET}", "scopes": ["r"]}},
  "bare": {"url": "https://bare.example.com/mcp", "oauth": {}},
  "plain": {"url": "https://plain.example.com/mcp"}
}}`
	f, err := Parse("toolhub.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		env     map[string]string
		server  string
		want    *hub.OAuthSpec
		invalid string // substring of Invalid
	}{
		{name: "secret expanded", env: map[string]string{"NOTES_SECRET": "s3"}, server: "notes",
			want: &hub.OAuthSpec{ClientID: "c1", ClientSecret: "s3", Scopes: []string{"r"}}},
		{name: "unset secret marks the server invalid", server: "notes",
			invalid: `toolhub.json:3:57: server "notes": oauth.clientSecret: environment variable NOTES_SECRET is not set`},
		{name: "empty object still means oauth", server: "bare", want: &hub.OAuthSpec{}},
		{name: "no oauth key", server: "plain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			specs := f.WithOAuth(f.ServeSpecs(lookup), Lookup{Env: lookup})
			var got hub.ServerSpec
			for _, s := range specs {
				if s.Name == tt.server {
					got = s
				}
			}
			if tt.invalid != "" {
				if !strings.Contains(got.Invalid, tt.invalid) || got.OAuth != nil {
					t.Fatalf("Invalid = %q, OAuth = %+v; want %q and no OAuth", got.Invalid, got.OAuth, tt.invalid)
				}
				return
			}
			if got.Invalid != "" {
				t.Fatalf("Invalid = %q", got.Invalid)
			}
			switch {
			case tt.want == nil && got.OAuth != nil:
				t.Fatalf("OAuth = %+v, want none", got.OAuth)
			case tt.want != nil && (got.OAuth == nil || got.OAuth.ClientID != tt.want.ClientID ||
				got.OAuth.ClientSecret != tt.want.ClientSecret || strings.Join(got.OAuth.Scopes, " ") != strings.Join(tt.want.Scopes, " ")):
				t.Fatalf("OAuth = %+v, want %+v", got.OAuth, tt.want)
			}
		})
	}
}
