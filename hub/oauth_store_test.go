package hub

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	transport "github.com/mark3labs/mcp-go/client/transport"
)

func TestTokenStoreRefreshesAhead(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name      string
		expiresAt time.Time
		expiresIn int64
		expired   bool
	}{
		{"an hour left", now.Add(time.Hour), 3600, false},
		{"30 s left of an hour", now.Add(30 * time.Second), 3600, true},
		{"60 s left of a 100 s token", now.Add(60 * time.Second), 100, false},
		{"20 s left of a 60 s token", now.Add(20 * time.Second), 60, true},
		{"no expiry", time.Time{}, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			creds := NewCredentials(newMemorySecrets(), errNoSecret)
			store := creds.TokenStore("s")
			if _, err := store.GetToken(t.Context()); !errors.Is(err, transport.ErrNoToken) {
				t.Fatalf("empty store: %v, want ErrNoToken", err)
			}
			tok := &transport.Token{AccessToken: "a", RefreshToken: "r", ExpiresAt: tc.expiresAt, ExpiresIn: tc.expiresIn}
			if err := store.SaveToken(t.Context(), tok); err != nil {
				t.Fatal(err)
			}
			got, err := store.GetToken(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if got.IsExpired() != tc.expired {
				t.Errorf("IsExpired = %v, want %v", got.IsExpired(), tc.expired)
			}
			rec, _ := creds.load("s")
			if !rec.Token.ExpiresAt.Equal(tc.expiresAt) {
				t.Errorf("stored expiry changed: %v, want %v", rec.Token.ExpiresAt, tc.expiresAt)
			}
		})
	}
}

func TestTokenStoreKeepsRegisteredClientAndHonorsContext(t *testing.T) {
	creds := NewCredentials(newMemorySecrets(), errNoSecret)
	if err := creds.update("s", func(r *signInRecord) { r.ClientID = "c1"; r.RedirectURI = "http://127.0.0.1:5/callback" }); err != nil {
		t.Fatal(err)
	}
	if err := creds.TokenStore("s").SaveToken(t.Context(), &transport.Token{AccessToken: "a"}); err != nil {
		t.Fatal(err)
	}
	rec, _ := creds.load("s")
	if rec.ClientID != "c1" || rec.Token == nil || rec.Token.AccessToken != "a" {
		t.Fatalf("record %+v", rec)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := creds.TokenStore("s").GetToken(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("GetToken on a cancelled ctx: %v", err)
	}
	if err := creds.Forget("s"); err != nil {
		t.Fatal(err)
	}
	if err := creds.Forget("s"); err != nil {
		t.Errorf("forgetting twice: %v", err)
	}
	if st, _ := creds.Status(ServerSpec{Name: "s"}); st.State != NotUsingOAuth {
		t.Errorf("after Forget: %+v", st)
	}
}

func TestWantsSignIn(t *testing.T) {
	plain := &downstream{spec: ServerSpec{Name: "n", Transport: TransportHTTP}}
	static := &downstream{spec: ServerSpec{Name: "n", Transport: TransportHTTP, Headers: map[string]string{"authorization": "Bearer x"}}}
	cases := []struct {
		name string
		d    *downstream
		err  error
		want bool
	}{
		{"401 without OAuth", plain, &transport.AuthorizationRequiredError{}, true},
		{"no token with OAuth", plain, &transport.OAuthAuthorizationRequiredError{}, true},
		{"401 despite a static header", static, &transport.AuthorizationRequiredError{}, false},
		{"unreachable", plain, errors.New("connection refused"), false},
		{"stdio", &downstream{spec: ServerSpec{Transport: TransportStdio}}, &transport.AuthorizationRequiredError{}, false},
		{"sse", &downstream{spec: ServerSpec{Transport: TransportSSE}}, &transport.AuthorizationRequiredError{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.wantsSignIn(tc.err); got != tc.want {
				t.Errorf("wantsSignIn = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBearerParams(t *testing.T) {
	cases := []struct {
		name, header string
		want         map[string]string
	}{
		{"quoted", `Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`,
			map[string]string{"resource_metadata": "https://x/.well-known/oauth-protected-resource", "scope": "a b"}},
		{"token values, odd case", `bearer Scope=read, error=invalid_token`, map[string]string{"scope": "read", "error": "invalid_token"}},
		{"escaped quote", `Bearer error_description="say \"hi\""`, map[string]string{"error_description": `say "hi"`}},
		{"other scheme", `Basic realm="x"`, nil},
		{"stops at the next challenge", `Bearer scope="a", Basic realm="x"`, map[string]string{"scope": "a"}},
		{"unterminated", `Bearer scope="a`, map[string]string{"scope": "a"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := bearerParams(tc.header)
			if (got == nil) != (tc.want == nil) || len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func FuzzBearerParams(f *testing.F) {
	f.Add(`Bearer resource_metadata="https://x", scope="a b"`)
	f.Add(`Bearer a=b,,c="d\"e", Basic x=y`)
	f.Fuzz(func(t *testing.T, header string) {
		params := bearerParams(header)
		if params != nil && !strings.EqualFold(strings.Fields(header + " x")[0], "Bearer") {
			t.Fatalf("params %q from a non-Bearer header", params)
		}
		for k := range params {
			if k == "" || strings.ContainsAny(k, " \t,\"") {
				t.Fatalf("bad name %q", k)
			}
		}
	})
}

func TestLoopbackTurnsAwayWrongState(t *testing.T) {
	lb, err := listenLoopback(0, "notes", "good-state")
	if err != nil {
		t.Fatal(err)
	}
	defer lb.close()
	for _, q := range []string{"?code=c&state=bad", "?code=c", "?error=access_denied&state=bad"} {
		resp, err := http.Get(lb.redirectURI() + q)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %s, want 400", q, resp.Status)
		}
	}
	resp, err := http.Get(lb.redirectURI() + "?error=access_denied&error_description=no&state=good-state")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, err = lb.wait(t.Context(), waitLimit)
	if err == nil || !strings.Contains(err.Error(), "access_denied (no)") {
		t.Fatalf("refusal: %v", err)
	}
}
