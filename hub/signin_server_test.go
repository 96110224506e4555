package hub

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestHubSignInNeedsCredentialsAndAServer(t *testing.T) {
	bare, err := New(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bare.SignIn(context.Background(), "x", SignInOptions{}); !errors.Is(err, ErrNoCredentials) {
		t.Fatalf("sign-in without credentials: %v", err)
	}
	h, err := New(nil, Options{Credentials: NewCredentials(newMemorySecrets(), errNoSecret)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.SignIn(context.Background(), "nobody", SignInOptions{}); err == nil || !strings.Contains(err.Error(), `no server "nobody"`) {
		t.Fatalf("sign-in to an unknown server: %v", err)
	}
}
