package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	transport "github.com/mark3labs/mcp-go/client/transport"
)

// defaultSignInPoll is how often a server waiting for sign-in looks at the
// secret store for a sign-in made by another process (toolhub auth login).
const defaultSignInPoll = 2 * time.Second

// errSignInRequired marks a connection ended because the server wants a
// (new) sign-in: no token, a refresh that failed, or a token it refused.
var errSignInRequired = errors.New("sign-in required")

// SignInReason is what a server waiting for sign-in says, in its status
// and in the answer to a call of its tools.
func SignInReason(server string) string {
	return "sign-in required: run toolhub auth login " + server
}

// httpOAuthOption gives an http transport mcp-go's OAuth handler over the
// server's stored sign-in, when the config asks for OAuth or a sign-in is
// stored; otherwise none, and a 401 moves the server to needs-sign-in.
// It notes the stored sign-in, to see later whether it changed.
func (d *downstream) httpOAuthOption() transport.StreamableHTTPCOption {
	creds := d.opts.Credentials
	if creds == nil {
		return nil
	}
	d.mu.Lock()
	d.signInSeen = creds.fingerprint(d.spec.Name)
	d.mu.Unlock()
	if !creds.uses(d.spec) {
		return nil
	}
	rec, _ := creds.load(d.spec.Name) // a failed read fails each request, with its reason
	return transport.WithHTTPOAuth(creds.oauthConfig(d.spec, rec, ""))
}

// wantsSignIn reports whether a failed connect or call means the server
// wants the user to sign in. A 401 despite an Authorization header from
// the config is a wrong static credential, not a sign-in.
func (d *downstream) wantsSignIn(err error) bool {
	if err == nil || d.spec.Transport != TransportHTTP {
		return false // sign-in is offered for streamable HTTP only
	}
	if errors.Is(err, errSignInRequired) || errors.Is(err, transport.ErrOAuthAuthorizationRequired) {
		return true
	}
	if !errors.Is(err, transport.ErrAuthorizationRequired) {
		return false
	}
	for k := range d.spec.Headers {
		if strings.EqualFold(k, "Authorization") {
			return false
		}
	}
	return true
}

// signInError is what a call gets while the server waits for sign-in.
func (d *downstream) signInError() *ServerUnavailableError {
	return &ServerUnavailableError{Server: d.spec.Name, State: StateNeedsSignIn, Reason: SignInReason(d.spec.Name)}
}

// awaitSignIn moves to needs-sign-in and waits, without trying the server,
// until the stored sign-in changes (a sign-in through this process is seen
// at once, one by another process within SignInPoll), or ctx ends. It
// reports whether to connect again.
func (d *downstream) awaitSignIn(ctx context.Context) bool {
	d.log.Warn("downstream needs sign-in", "hint", "toolhub auth login "+d.spec.Name)
	d.setState(StateNeedsSignIn, SignInReason(d.spec.Name))
	creds := d.opts.Credentials
	if creds == nil {
		<-ctx.Done() // nowhere to keep a sign-in: only a restart helps
		return false
	}
	d.mu.Lock()
	seen := d.signInSeen
	d.mu.Unlock()
	poll := time.NewTicker(d.opts.SignInPoll)
	defer poll.Stop()
	for {
		changed := creds.changes()
		if creds.fingerprint(d.spec.Name) != seen {
			d.retry.Reset()
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-changed:
		case <-poll.C:
		}
	}
}

// markSignInRequired ends conn because the server refused the call's
// credentials, and returns the error the call answers with.
func (d *downstream) markSignInRequired(conn *connection, err error) error {
	conn.markBroken(fmt.Errorf("%w: %w", errSignInRequired, err))
	return d.signInError()
}

// watchSignOut ends conn once the sign-in it was opened with is deleted
// (toolhub auth logout, here or in another process), so that the server
// needs sign-in at once rather than at its next refused call. It returns
// when conn is closed.
func (d *downstream) watchSignOut(conn *connection) {
	creds := d.opts.Credentials
	d.mu.Lock()
	seen := d.signInSeen
	d.mu.Unlock()
	if creds == nil || seen == "" {
		return
	}
	poll := time.NewTicker(d.opts.SignInPoll)
	defer poll.Stop()
	for {
		changed := creds.changes()
		if creds.absent(d.spec.Name) {
			conn.markBroken(fmt.Errorf("%w: signed out", errSignInRequired))
			return
		}
		select {
		case <-conn.done:
			return
		case <-changed:
		case <-poll.C:
		}
	}
}
