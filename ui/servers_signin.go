package ui

import (
	"net/url"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// StateNeedsSignIn is the state of a server waiting for an OAuth sign-in.
const StateNeedsSignIn = "needs-sign-in"

// signIn runs the named server's sign-in: the browser opens on the
// authorization page (its address also shown, to open elsewhere), and the
// server connects once the browser comes back.
func (t *ServersTab) signIn(name string) {
	t.SignInStatus = "Signing in to " + name + "…"
	t.say(t.SignInStatus)
	ctx, cancel := t.bridge.cancellable()
	open := func(authURL string) {
		t.bridge.onUI(func() { t.showSignInURL(name, authURL) })
	}
	go func() {
		defer cancel()
		err := t.backend.SignIn(ctx, name, open)
		t.bridge.onUI(func() {
			if err != nil {
				t.SignInStatus = "Sign-in to " + name + " failed: " + err.Error()
				t.say(t.SignInStatus)
				return
			}
			t.SignInStatus = "Signed in to " + name + "; it connects now"
			t.say(t.SignInStatus)
		})
	}()
}

// showSignInURL opens the browser and shows the address, for a browser on
// another machine.
func (t *ServersTab) showSignInURL(name, authURL string) {
	t.SignInURL = authURL
	if u, err := url.Parse(authURL); err == nil && fyne.CurrentApp() != nil {
		_ = fyne.CurrentApp().OpenURL(u)
	}
	entry := widget.NewEntry()
	entry.SetText(authURL)
	text := widget.NewLabel("Your browser opens the sign-in page of " + name + ". If it did not, open this address:")
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom("Sign in to "+name, "Close", widget.NewForm(widget.NewFormItem("", text), widget.NewFormItem("", entry)), t.window)
	d.Resize(fyne.NewSize(560, 220))
	d.Show()
}
