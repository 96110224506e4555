package hub

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedLog is a slog sink the hub's goroutines write to at once.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// TestOAuthSignInCallRefreshRevoke walks a remote server through its whole
// sign-in life: needs sign-in at first, signed in, a token that expires
// and is refreshed without the user, then revoked and needing sign-in
// again. No token ever shows in the logs, the statuses or an error.
func TestOAuthSignInCallRefreshRevoke(t *testing.T) {
	fake := newFakeOAuthServer(t, time.Hour)
	creds := NewCredentials(newMemorySecrets(), errNoSecret)
	spec := ServerSpec{Name: "notes", Transport: TransportHTTP, URL: fake.URL + "/mcp", Locality: LocalityRemote}
	logs := &lockedLog{}
	h, err := New([]ServerSpec{spec}, Options{
		Logger:      slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Credentials: creds, ConnectTimeout: waitLimit, SignInPoll: 10 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Start(t.Context())
	var seen []string // everything a user or a log could see
	observe := func() {
		raw, _ := json.Marshal(h.Servers())
		seen = append(seen, string(raw))
	}
	callOK := func(step string) {
		t.Helper()
		waitUntil(t, step+": ready", func() bool { return statusOf(h, "notes").State == StateReady },
			func() string { return statusOf(h, "notes").Detail() })
		res, err := h.Call(t.Context(), "notes__whoami", nil, CallOptions{})
		if err != nil || !strings.Contains(string(res.Raw), "signed in as demo") {
			t.Fatalf("%s: call: %v %s", step, err, resRaw(res))
		}
		observe()
	}
	wantSignIn := func(step string) {
		t.Helper()
		waitUntil(t, step+": needs-sign-in", func() bool { return statusOf(h, "notes").State == StateNeedsSignIn },
			func() string { return statusOf(h, "notes").Detail() })
		if st := statusOf(h, "notes"); st.LastError != SignInReason("notes") {
			t.Errorf("%s: LastError %q", step, st.LastError)
		}
		_, err := h.Call(t.Context(), "notes__whoami", nil, CallOptions{})
		var unavailable *ServerUnavailableError
		if !errors.As(err, &unavailable) || unavailable.State != StateNeedsSignIn ||
			err.Error() != "server notes: sign-in required: run toolhub auth login notes" {
			t.Fatalf("%s: call answered %v", step, err)
		}
		seen = append(seen, err.Error())
		observe()
	}
	signIn := func(step string, c *Credentials) {
		t.Helper()
		st, err := c.SignIn(t.Context(), spec, SignInOptions{OpenBrowser: followBrowser, Timeout: waitLimit})
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if st.State != SignedIn || !st.Refreshable || strings.Join(st.Scopes, " ") != "notes:read" {
			t.Fatalf("%s: status %+v", step, st)
		}
		raw, _ := json.Marshal(st)
		seen = append(seen, string(raw))
	}

	wantSignIn("before any sign-in")
	signIn("first sign-in", creds)
	callOK("signed in")

	// The token lapses: the next call refreshes it first.
	expireStoredToken(t, creds, "notes")
	callOK("after expiry")
	if _, _, _, n := fake.snapshot(); n != 1 {
		t.Fatalf("%d refreshes, want 1", n)
	}

	// Access is revoked: the server refuses the token and the refresh.
	fake.revokeAll()
	_, err = h.Call(t.Context(), "notes__whoami", nil, CallOptions{})
	if err == nil || err.Error() != "server notes: sign-in required: run toolhub auth login notes" {
		t.Fatalf("call with a revoked token: %v", err)
	}
	wantSignIn("after revocation")

	// A sign-in by another process, through another view of the store, is
	// found by polling.
	signIn("sign-in again", NewCredentials(creds.store, errNoSecret))
	callOK("signed in again")

	// The token lapses and its refresh token was revoked: the refresh
	// fails, and the server needs sign-in again.
	fake.revokeAll()
	expireStoredToken(t, creds, "notes")
	_, err = h.Call(t.Context(), "notes__whoami", nil, CallOptions{})
	if err == nil || err.Error() != "server notes: sign-in required: run toolhub auth login notes" {
		t.Fatalf("call after a failed refresh: %v", err)
	}
	wantSignIn("after a failed refresh")
	signIn("sign-in after a failed refresh", creds)
	callOK("signed in after a failed refresh")

	// Signing out revokes both tokens and leaves the server needing sign-in.
	revoked, err := creds.SignOut(t.Context(), spec, nil)
	if err != nil || !revoked {
		t.Fatalf("SignOut: revoked %v, %v", revoked, err)
	}
	fake.mu.Lock()
	hints := strings.Join(fake.revoked, " ")
	fake.mu.Unlock()
	if hints != "refresh_token access_token" {
		t.Errorf("revoked %q, want the refresh and the access token", hints)
	}
	wantSignIn("after sign-out")

	issued, resources, scopes, _ := fake.snapshot()
	for _, r := range resources {
		if r != fake.URL+"/mcp" {
			t.Errorf("token request with resource %q, want %q", r, fake.URL+"/mcp")
		}
	}
	for _, s := range scopes {
		if s != "notes:read" {
			t.Errorf("authorization asked for scope %q, want the challenge's notes:read", s)
		}
	}
	seen = append(seen, logs.String())
	for _, tok := range issued {
		for _, s := range seen {
			if strings.Contains(s, tok) {
				t.Fatalf("token %s… shows in:\n%s", tok[:6], s)
			}
		}
	}
	if !strings.Contains(logs.String(), "downstream needs sign-in") {
		t.Errorf("the log does not say the server needs sign-in:\n%s", logs)
	}
}

func resRaw(r *CallResult) string {
	if r == nil {
		return ""
	}
	return string(r.Raw)
}

// expireStoredToken moves the stored token's expiry into the past, as time
// passing would.
func expireStoredToken(t *testing.T, c *Credentials, server string) {
	t.Helper()
	err := c.update(server, func(rec *signInRecord) {
		rec.Token.ExpiresAt = time.Now().Add(-time.Minute)
	})
	if err != nil {
		t.Fatal(err)
	}
}
