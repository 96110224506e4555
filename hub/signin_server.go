package hub

import (
	"context"
	"errors"
	"fmt"
)

// ErrNoCredentials is returned by SignIn when the hub keeps no sign-ins.
var ErrNoCredentials = errors.New("this toolhub keeps no sign-ins (no secret store)")

// SignIn signs in to the named http server through the browser, as
// `toolhub auth login` does, and stores the sign-in where the server's
// connection finds it: a server waiting in needs-sign-in reconnects at once.
func (h *Hub) SignIn(ctx context.Context, name string, opts SignInOptions) (SignInStatus, error) {
	if h.opts.Credentials == nil {
		return SignInStatus{}, ErrNoCredentials
	}
	m, ok := h.server(name)
	if !ok {
		return SignInStatus{}, fmt.Errorf("sign in: no server %q", name)
	}
	return h.opts.Credentials.SignIn(ctx, m.spec, opts)
}
