package hub

import (
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/testenv"
)

// The lifetimes mockoidc gives its tokens in these tests. The access
// token's must not wrap when mcp-go reads mockoidc's nanoseconds as
// seconds: an hour becomes about 91 years ahead, where ten minutes would
// wrap into the past and every request would refresh.
const (
	mockOIDCAccessTTL  = time.Hour
	mockOIDCRefreshTTL = 3 * time.Hour
)

// TestMockOIDCSignInCallRefreshExpire signs in to an MCP server whose
// tokens mockoidc issues, with the client named in the config, calls its
// tool through a hub, has the expired access token refreshed without the
// user, and lets the refresh token lapse so that the server needs sign-in.
// No issued token shows in the logs, the statuses or an answer.
func TestMockOIDCSignInCallRefreshExpire(t *testing.T) {
	const below, root = "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"
	cases := []struct {
		name         string
		metadataPath string // where the server publishes and advertises its metadata
		configureAS  bool   // the config names mockoidc's discovery document
	}{
		{name: "metadata below the server's path", metadataPath: below},
		{name: "metadata at the root, authorization server configured", metadataPath: root, configureAS: true},
		// The sign-in keeps the authorization server found through the
		// advertised root metadata: the hub's connection starts with a token
		// and never sees the challenge, and mcp-go alone would look below
		// /mcp, find nothing and refresh at ORIGIN/token, on the MCP server.
		{name: "metadata at the root, discovered", metadataPath: root},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newOIDCFlow(t, tc.metadataPath, tc.configureAS)
			f.signIn()
			f.startHub()
			f.callOK("signed in")
			f.refreshAfterExpiry()
			f.refreshFails()
			f.noTokenShown()
		})
	}
}

// oidcFlow is one server behind mockoidc, its sign-in and a hub using it.
type oidcFlow struct {
	t     *testing.T
	oidc  *oidcProvider
	creds *Credentials
	spec  ServerSpec
	h     *Hub
	logs  *lockedLog
	seen  []string // everything a user or a log could see
}

func newOIDCFlow(t *testing.T, metadataPath string, configureAS bool) *oidcFlow {
	oidc := newOIDCProvider(t, mockOIDCAccessTTL, mockOIDCRefreshTTL)
	srv := newOIDCProtectedServer(t, oidc, metadataPath)
	oauth := &OAuthSpec{ClientID: oidc.m.ClientID, ClientSecret: oidc.m.ClientSecret}
	if configureAS {
		oauth.AuthServerMetadataURL = oidc.m.DiscoveryEndpoint()
	}
	return &oidcFlow{t: t, oidc: oidc, creds: NewCredentials(newMemorySecrets(), errNoSecret), logs: &lockedLog{},
		spec: ServerSpec{Name: "oidc", Transport: TransportHTTP, URL: srv.URL + "/mcp", Locality: LocalityRemote, OAuth: oauth}}
}

// signIn signs in through the hub's code: discovery from the challenge,
// the browser approving at mockoidc, the code exchanged with PKCE S256
// and the client secret.
func (f *oidcFlow) signIn() {
	t := f.t
	t.Helper()
	st, err := f.creds.SignIn(t.Context(), f.spec, SignInOptions{OpenBrowser: testenv.ApprovingBrowser, Timeout: waitLimit})
	if err != nil {
		t.Fatalf("sign in: %v", err)
	}
	if st.State != SignedIn || !st.Refreshable || st.RegisteredClient {
		t.Fatalf("after sign-in: %+v", st)
	}
	raw, _ := json.Marshal(st)
	f.seen = append(f.seen, string(raw))
	wantGrants(t, "sign-in", f.oidc, []oidcGrant{{Type: "authorization_code", Verifier: true, Status: 200, ExpiresIn: int64(mockOIDCAccessTTL)}})
	// mockoidc's expires_in is in nanoseconds: the expiry the client
	// computed from it is decades away, not an hour.
	if st.Expires.Before(time.Now().Add(10 * 365 * 24 * time.Hour)) {
		t.Errorf("stored expiry %v: mockoidc's expires_in is read as seconds, so it should be decades away", st.Expires)
	}
}

func (f *oidcFlow) startHub() {
	t := f.t
	t.Helper()
	h, err := New([]ServerSpec{f.spec}, Options{
		Logger:      slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Credentials: f.creds, ConnectTimeout: waitLimit, SignInPoll: 10 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	h.Start(t.Context())
	f.h = h
}

func (f *oidcFlow) callOK(step string) {
	t := f.t
	t.Helper()
	waitUntil(t, step+": ready", func() bool { return statusOf(f.h, "oidc").State == StateReady },
		func() string { return statusOf(f.h, "oidc").Detail() })
	res, err := f.h.Call(t.Context(), "oidc__whoami", nil, CallOptions{})
	if err != nil || !strings.Contains(string(res.Raw), "signed in through mockoidc") {
		grants, _ := f.oidc.snapshot()
		t.Fatalf("%s: call: %v %s (token requests %+v)", step, err, resRaw(res), grants)
	}
	raw, _ := json.Marshal(f.h.Servers())
	f.seen = append(f.seen, string(raw))
}

// refreshAfterExpiry lets an hour pass at mockoidc, so that the server
// refuses the access token. mockoidc's expires_in does not tell the client
// so, so the stored expiry is moved to the past too, where a seconds-valued
// expires_in would have put it. The next call refreshes first.
func (f *oidcFlow) refreshAfterExpiry() {
	t := f.t
	t.Helper()
	first := storedAccessToken(t, f.creds, "oidc")
	f.oidc.fastForward(mockOIDCAccessTTL + time.Minute)
	expireStoredToken(t, f.creds, "oidc")
	f.callOK("after expiry")
	wantGrants(t, "after expiry", f.oidc, []oidcGrant{
		{Type: "authorization_code", Verifier: true, Status: 200, ExpiresIn: int64(mockOIDCAccessTTL)},
		{Type: "refresh_token", Status: 200, ExpiresIn: int64(mockOIDCAccessTTL)},
	})
	if storedAccessToken(t, f.creds, "oidc") == first {
		t.Fatal("the refresh stored the same access token")
	}
}

// refreshFails lets the refresh token lapse too: the refresh fails at
// mockoidc, and the server needs sign-in.
func (f *oidcFlow) refreshFails() {
	t := f.t
	t.Helper()
	const reason = "server oidc: sign-in required: run toolhub auth login oidc"
	f.oidc.fastForward(mockOIDCRefreshTTL)
	expireStoredToken(t, f.creds, "oidc")
	if _, err := f.h.Call(t.Context(), "oidc__whoami", nil, CallOptions{}); err == nil || err.Error() != reason {
		t.Fatalf("call after a failed refresh: %v", err)
	}
	waitUntil(t, "needs-sign-in", func() bool { return statusOf(f.h, "oidc").State == StateNeedsSignIn },
		func() string { return statusOf(f.h, "oidc").Detail() })
	if st := statusOf(f.h, "oidc"); st.LastError != SignInReason("oidc") {
		t.Errorf("LastError %q, want %q", st.LastError, SignInReason("oidc"))
	}
	_, err := f.h.Call(t.Context(), "oidc__whoami", nil, CallOptions{})
	var unavailable *ServerUnavailableError
	if !errors.As(err, &unavailable) || unavailable.State != StateNeedsSignIn || err.Error() != reason {
		t.Fatalf("call while needing sign-in answered %v", err)
	}
	grants, _ := f.oidc.snapshot()
	if last := grants[len(grants)-1]; last.Type != "refresh_token" || last.Status != 401 {
		t.Errorf("last token request %+v, want a refused refresh", last)
	}
	raw, _ := json.Marshal(f.h.Servers())
	f.seen = append(f.seen, string(raw), err.Error())
	if !strings.Contains(f.logs.String(), "downstream needs sign-in") {
		t.Errorf("the log does not say the server needs sign-in:\n%s", f.logs)
	}
}

// noTokenShown checks that no token mockoidc issued shows in what was seen
// or in the debug log.
func (f *oidcFlow) noTokenShown() {
	t := f.t
	t.Helper()
	_, issued := f.oidc.snapshot()
	if len(issued) < 4 {
		t.Fatalf("mockoidc issued %d tokens, want an access, a refresh and an ID token and a refreshed access and ID token", len(issued))
	}
	seen := append(slices.Clone(f.seen), f.logs.String())
	for _, tok := range issued {
		for _, s := range seen {
			if strings.Contains(s, tok) {
				t.Fatalf("token %s… shows in:\n%s", tok[:6], s)
			}
		}
	}
}

// wantGrants checks the token requests mockoidc has answered so far.
func wantGrants(t *testing.T, step string, p *oidcProvider, want []oidcGrant) {
	t.Helper()
	got, _ := p.snapshot()
	if len(got) != len(want) {
		t.Fatalf("%s: token requests %+v, want %+v", step, got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: token request %d is %+v, want %+v", step, i, got[i], want[i])
		}
	}
}

func storedAccessToken(t *testing.T, c *Credentials, server string) string {
	t.Helper()
	rec, err := c.load(server)
	if err != nil || rec.Token == nil || rec.Token.AccessToken == "" {
		t.Fatalf("stored token of %s: %v", server, err)
	}
	return rec.Token.AccessToken
}
