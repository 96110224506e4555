package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

func TestSignInShowsTheAddressAndSaysHowItWent(t *testing.T) {
	cases := []struct {
		server, want string
	}{
		{"linear", "Signed in to linear; it connects now"},
		{"denied", "Sign-in to denied failed: the authorization server said access_denied"},
	}
	for _, tc := range cases {
		t.Run(tc.server, func(t *testing.T) {
			h := newHarness(t, func(fb *fakeBackend) {
				fb.servers = append(fb.servers, ServerInfo{Name: tc.server, Kind: KindServer, Health: HealthBusy,
					State: StateNeedsSignIn, Locality: "remote", Enabled: true})
			})
			h.waitFor("the rows", func() bool { return h.d.Servers.Rows[tc.server] != nil })
			row := h.d.Servers.Rows[tc.server]
			if !row.SignIn.Visible() {
				t.Fatal("no Sign in button on a server that needs sign-in")
			}
			if h.d.Servers.Rows["github"].SignIn.Visible() {
				t.Fatal("a Sign in button on a server that is ready")
			}
			test.Tap(row.SignIn)
			h.waitFor("the sign-in's end", func() bool { return !strings.HasSuffix(h.d.Servers.SignInStatus, "…") })
			if h.d.Servers.SignInStatus != tc.want {
				t.Fatalf("status %q, want %q", h.d.Servers.SignInStatus, tc.want)
			}
			if h.d.Servers.SignInURL != fakeAuthURL {
				t.Fatalf("the browser was sent to %q", h.d.Servers.SignInURL)
			}
			h.checkNothingOnUI()
		})
	}
}
