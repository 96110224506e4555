package ui

import (
	"strings"
	"testing"
)

func TestSignInShowsTheAddressAndSaysHowItWent(t *testing.T) {
	cases := []struct {
		server, want string
	}{
		{"github", "Signed in to github"},
		{"denied", "Sign-in to denied failed: the authorization server said access_denied"},
	}
	for _, tc := range cases {
		t.Run(tc.server, func(t *testing.T) {
			h := newHarness(t, nil)
			h.d.Servers.signIn(tc.server)
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
