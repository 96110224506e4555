package hub

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestDiscoverFindsWhatMCPGoMisses serves the metadata layouts of the
// conformance suite's variants and checks where discovery points mcp-go.
func TestDiscoverFindsWhatMCPGoMisses(t *testing.T) {
	cases := []struct {
		name     string
		docs     map[string]string // path -> JSON, with ORIGIN replaced
		wantMeta string            // path of the metadata URL handed to mcp-go, "" for none
		scopes   string
	}{
		{name: "path-based resource metadata: mcp-go finds it",
			docs:   map[string]string{"/.well-known/oauth-protected-resource/mcp": `{"resource":"ORIGIN/mcp","authorization_servers":["ORIGIN"],"scopes_supported":["a","b"]}`},
			scopes: "a b"},
		{name: "root resource metadata naming the origin",
			docs: map[string]string{
				"/.well-known/oauth-protected-resource":           `{"resource":"ORIGIN","authorization_servers":["ORIGIN/tenant1"]}`,
				"/.well-known/oauth-authorization-server/tenant1": `{"issuer":"ORIGIN/tenant1","token_endpoint":"ORIGIN/tenant1/token"}`},
			wantMeta: "/.well-known/oauth-authorization-server/tenant1"},
		{name: "root resource metadata naming another server",
			docs: map[string]string{
				"/.well-known/oauth-protected-resource":   `{"resource":"https://elsewhere.example","authorization_servers":["ORIGIN"]}`,
				"/.well-known/oauth-authorization-server": `{"issuer":"ORIGIN","token_endpoint":"ORIGIN/token"}`}},
		{name: "no resource metadata, 2025-03-26 metadata at the root",
			docs:     map[string]string{"/.well-known/oauth-authorization-server": `{"issuer":"ORIGIN","token_endpoint":"ORIGIN/oauth/token"}`},
			wantMeta: "/.well-known/oauth-authorization-server"},
		{name: "nothing published"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var srv *httptest.Server
			srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				doc, ok := tc.docs[r.URL.Path]
				if !ok {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(strings.ReplaceAll(doc, "ORIGIN", srv.URL)))
			}))
			defer srv.Close()
			var ch challenge
			discover(t.Context(), srv.Client(), ServerSpec{Name: "s", URL: srv.URL + "/mcp"}, "", &ch)
			want := ""
			if tc.wantMeta != "" {
				want = srv.URL + tc.wantMeta
			}
			if ch.authServerMetadataURL != want {
				t.Errorf("metadata URL %q, want %q", ch.authServerMetadataURL, want)
			}
			if got := strings.Join(ch.scopes, " "); got != tc.scopes {
				t.Errorf("scopes %q, want %q", got, tc.scopes)
			}
		})
	}
}
