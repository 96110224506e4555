package hub

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// fakeOAuthServer is an MCP server behind OAuth 2.1 with its own
// authorization server on the same origin: dynamic registration, an
// authorization endpoint that approves at once, PKCE S256, refresh tokens
// that rotate, and revocation by the test.
type fakeOAuthServer struct {
	*httptest.Server
	lifetime time.Duration // of access tokens

	mu       sync.Mutex
	clients  map[string][]string // client id -> redirect URIs
	codes    map[string]fakeCode
	access   map[string]time.Time // token -> expiry
	refresh  map[string]bool
	issued   []string // every token handed out, for the leak check
	resource []string // the resource parameter of every token request
	scopes   []string // the scope of every authorization request
	refreshs int
	revoked  []string // token_type_hint of every revocation
}

type fakeCode struct{ client, redirect, challenge string }

func newFakeOAuthServer(t *testing.T, lifetime time.Duration) *fakeOAuthServer {
	t.Helper()
	f := &fakeOAuthServer{lifetime: lifetime, clients: map[string][]string{}, codes: map[string]fakeCode{},
		access: map[string]time.Time{}, refresh: map[string]bool{}}
	s := mcpserver.NewMCPServer("fake-notes", "1.0.0")
	s.AddTool(mcpgo.NewTool("whoami", mcpgo.WithDescription("Says who is signed in")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("signed in as demo"), nil
		})
	mcp := mcpserver.NewStreamableHTTPServer(s)
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if !f.validBearer(r.Header.Get("Authorization")) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp", scope="notes:read"`, f.URL))
			http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
			return
		}
		mcp.ServeHTTP(w, r)
	})
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, _ *http.Request) {
		writeJSONBody(w, map[string]any{"resource": f.URL + "/mcp", "authorization_servers": []string{f.URL},
			"scopes_supported": []string{"notes:read", "notes:write"}})
	})
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, _ *http.Request) {
		writeJSONBody(w, map[string]any{"issuer": f.URL, "authorization_endpoint": f.URL + "/authorize",
			"token_endpoint": f.URL + "/token", "registration_endpoint": f.URL + "/register",
			"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"}, "revocation_endpoint": f.URL + "/revoke"})
	})
	mux.HandleFunc("POST /register", f.register)
	mux.HandleFunc("GET /authorize", f.authorize)
	mux.HandleFunc("POST /token", f.token)
	mux.HandleFunc("POST /revoke", f.revoke)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func writeJSONBody(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func randomToken() string {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (f *fakeOAuthServer) validBearer(h string) bool {
	tok, ok := strings.CutPrefix(h, "Bearer ")
	f.mu.Lock()
	defer f.mu.Unlock()
	exp, known := f.access[tok]
	return ok && known && time.Now().Before(exp)
}

func (f *fakeOAuthServer) register(w http.ResponseWriter, r *http.Request) {
	var req struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.RedirectURIs) == 0 {
		http.Error(w, `{"error":"invalid_client_metadata"}`, http.StatusBadRequest)
		return
	}
	id := "client-" + randomToken()
	f.mu.Lock()
	f.clients[id] = req.RedirectURIs
	f.mu.Unlock()
	w.WriteHeader(http.StatusCreated)
	writeJSONBody(w, map[string]any{"client_id": id, "redirect_uris": req.RedirectURIs, "token_endpoint_auth_method": "none"})
}

// authorize approves at once, as if the user clicked "allow".
func (f *fakeOAuthServer) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f.mu.Lock()
	uris, ok := f.clients[q.Get("client_id")]
	f.scopes = append(f.scopes, q.Get("scope"))
	f.mu.Unlock()
	redirect := q.Get("redirect_uri")
	if !ok || !contains(uris, redirect) || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	code := randomToken()
	f.mu.Lock()
	f.codes[code] = fakeCode{client: q.Get("client_id"), redirect: redirect, challenge: q.Get("code_challenge")}
	f.mu.Unlock()
	back, _ := url.Parse(redirect)
	back.RawQuery = url.Values{"code": {code}, "state": {q.Get("state")}}.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (f *fakeOAuthServer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resource = append(f.resource, r.Form.Get("resource"))
	switch r.Form.Get("grant_type") {
	case "authorization_code":
		c, ok := f.codes[r.Form.Get("code")]
		delete(f.codes, r.Form.Get("code"))
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		if !ok || c.client != r.Form.Get("client_id") || c.redirect != r.Form.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge {
			w.WriteHeader(http.StatusBadRequest)
			writeJSONBody(w, map[string]string{"error": "invalid_grant"})
			return
		}
	case "refresh_token":
		if !f.refresh[r.Form.Get("refresh_token")] {
			w.WriteHeader(http.StatusBadRequest)
			writeJSONBody(w, map[string]string{"error": "invalid_grant"})
			return
		}
		delete(f.refresh, r.Form.Get("refresh_token")) // rotated
		f.refreshs++
	default:
		w.WriteHeader(http.StatusBadRequest)
		writeJSONBody(w, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	access, refresh := "at-"+randomToken(), "rt-"+randomToken()
	f.access[access] = time.Now().Add(f.lifetime)
	f.refresh[refresh] = true
	f.issued = append(f.issued, access, refresh)
	writeJSONBody(w, map[string]any{"access_token": access, "token_type": "Bearer", "refresh_token": refresh,
		"expires_in": int(f.lifetime / time.Second), "scope": "notes:read"})
}

// revoke is RFC 7009's endpoint: a known public client's token is
// forgotten; an unknown token is no error.
func (f *fakeOAuthServer) revoke(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.clients[r.Form.Get("client_id")]; !ok {
		w.WriteHeader(http.StatusUnauthorized)
		writeJSONBody(w, map[string]string{"error": "invalid_client"})
		return
	}
	tok := r.Form.Get("token")
	delete(f.access, tok)
	delete(f.refresh, tok)
	f.revoked = append(f.revoked, r.Form.Get("token_type_hint"))
}

// revokeAll invalidates every token, as a user revoking access would.
func (f *fakeOAuthServer) revokeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.access, f.refresh = map[string]time.Time{}, map[string]bool{}
}

func (f *fakeOAuthServer) snapshot() (issued, resources, scopes []string, refreshes int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.issued...), append([]string(nil), f.resource...), append([]string(nil), f.scopes...), f.refreshs
}

// memorySecrets is an in-memory SecretStore.
type memorySecrets struct {
	mu sync.Mutex
	m  map[string]string
}

var errNoSecret = errors.New("secret not found")

func newMemorySecrets() *memorySecrets { return &memorySecrets{m: map[string]string{}} }

func (s *memorySecrets) Get(name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[name]
	if !ok {
		return "", fmt.Errorf("get %s: %w", name, errNoSecret)
	}
	return v, nil
}

func (s *memorySecrets) Set(name, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[name] = value
	return nil
}

func (s *memorySecrets) Delete(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[name]; !ok {
		return errNoSecret
	}
	delete(s.m, name)
	return nil
}

// followBrowser is a browser that follows the authorization server's
// redirects to the loopback listener, as a user approving would.
func followBrowser(ctx context.Context, authURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("browser ended on %s", resp.Status)
	}
	return nil
}
