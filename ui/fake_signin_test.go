package ui

import (
	"context"
	"errors"
)

// fakeAuthURL is where the fake backend's sign-ins send the browser.
const fakeAuthURL = "https://auth.example/authorize?client_id=toolhub"

// SignIn sends the browser to fakeAuthURL and succeeds, except for a
// server named "denied".
func (f *fakeBackend) SignIn(_ context.Context, name string, open func(string)) error {
	f.note()
	open(fakeAuthURL)
	if name == "denied" {
		return errors.New("the authorization server said access_denied")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.signedIn = append(f.signedIn, name)
	return nil
}
