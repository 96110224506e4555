package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"github.com/oauth2-proxy/mockoidc"
)

// oidcProvider is mockoidc, an OpenID Connect provider kept by the
// oauth2-proxy project, with a record of every token request.
//
// What mockoidc does, read from its source:
//   - discovery only at ISSUER/.well-known/openid-configuration, the issuer
//     being http://ADDR/oidc; no registration endpoint (no RFC 7591), so
//     its one client (ClientID, ClientSecret) is named in the config;
//   - authorize approves at once for the next queued user, else a default
//     one; it asks for scope and accepts only openid, email, groups and
//     profile; PKCE plain and S256;
//   - the token endpoint reads the client secret from the form only
//     (client_secret_post; it lists client_secret_basic too), grants authorization_code and refresh_token;
//     a refresh returns a new access token and the same refresh token;
//     tokens are RS256 JWTs with exp = iat + AccessTTL or RefreshTTL;
//   - expires_in is written as a Go time.Duration, in nanoseconds, not in
//     seconds as RFC 6749 §5.1 says, so a client cannot learn the expiry;
//   - FastForward moves its clock, read by its token checks; neither that
//     clock nor its store of codes is locked, so every request to it and
//     every FastForward go through mu here.
type oidcProvider struct {
	m *mockoidc.MockOIDC

	mu     sync.Mutex
	grants []oidcGrant
	issued []string // every access, refresh and ID token it returned
}

// oidcGrant is one token request: its grant type, whether it sent a PKCE
// code verifier, and the answer's status and expires_in, as written.
type oidcGrant struct {
	Type      string
	Verifier  bool
	Status    int
	ExpiresIn int64
}

func newOIDCProvider(t *testing.T, accessTTL, refreshTTL time.Duration) *oidcProvider {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	m.AccessTTL, m.RefreshTTL = accessTTL, refreshTTL
	p := &oidcProvider{m: m}
	if err := m.AddMiddleware(p.record); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ln, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	return p
}

// record serialises mockoidc's requests and notes each token request.
func (p *oidcProvider) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if r.URL.Path != mockoidc.TokenEndpoint {
			next.ServeHTTP(w, r)
			return
		}
		_ = r.ParseForm() // mockoidc parses it again, to the same values
		tee := &teeWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(tee, r)
		var body struct {
			AccessToken  string `json:"access_token"`
			RefreshToken string `json:"refresh_token"`
			IDToken      string `json:"id_token"`
			ExpiresIn    int64  `json:"expires_in"`
		}
		_ = json.Unmarshal(tee.body.Bytes(), &body)
		p.grants = append(p.grants, oidcGrant{Type: r.Form.Get("grant_type"), Verifier: r.Form.Get("code_verifier") != "", Status: tee.status, ExpiresIn: body.ExpiresIn})
		for _, tok := range []string{body.AccessToken, body.RefreshToken, body.IDToken} {
			if tok != "" {
				p.issued = append(p.issued, tok)
			}
		}
	})
}

// teeWriter keeps a copy of what it writes.
type teeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *teeWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *teeWriter) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

// fastForward moves mockoidc's clock on by d.
func (p *oidcProvider) fastForward(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.m.FastForward(d)
}

func (p *oidcProvider) snapshot() (grants []oidcGrant, issued []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.grants), slices.Clone(p.issued)
}

// validAccess checks a bearer token as a resource server would: signed
// with mockoidc's key, issued by it for its client, and not expired by
// its clock. mockoidc's access, refresh and ID tokens carry the same
// claims, so nothing tells them apart.
func (p *oidcProvider) validAccess(header string) bool {
	raw, ok := strings.CutPrefix(header, "Bearer ")
	if !ok {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	tok, err := p.m.Keypair.VerifyJWT(raw, p.m.Now)
	if err != nil || !tok.Valid {
		return false
	}
	iss, _ := tok.Claims.GetIssuer()
	aud, _ := tok.Claims.GetAudience()
	exp, _ := tok.Claims.GetExpirationTime()
	return iss == p.m.Issuer() && slices.Contains(aud, p.m.ClientID) && exp != nil && p.m.Now().Before(exp.Time)
}

// newOIDCProtectedServer is an MCP server at /mcp with one tool behind a
// bearer check of mockoidc's tokens. It answers a missing or refused token
// with 401 and a challenge naming its protected resource metadata
// (RFC 9728), served at metadataPath, which names mockoidc's issuer as
// authorization server.
func newOIDCProtectedServer(t *testing.T, p *oidcProvider, metadataPath string) *httptest.Server {
	t.Helper()
	s := mcpserver.NewMCPServer("oidc-notes", "1.0.0")
	s.AddTool(mcpgo.NewTool("whoami", mcpgo.WithDescription("Says who is signed in")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("signed in through mockoidc"), nil
		})
	mcp := mcpserver.NewStreamableHTTPServer(s)
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if !p.validAccess(r.Header.Get("Authorization")) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="http://%s%s"`, r.Host, metadataPath))
			http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
			return
		}
		mcp.ServeHTTP(w, r)
	})
	mux.HandleFunc("GET "+metadataPath, func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		issuer := p.m.Issuer()
		p.mu.Unlock()
		writeJSONBody(w, map[string]any{"resource": "http://" + r.Host + "/mcp", "authorization_servers": []string{issuer},
			"scopes_supported": []string{"openid", "profile"}})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}
