package hub

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/toolhub/toolhub/internal/httpstop"
)

// loopback receives the authorization server's redirect on 127.0.0.1
// (RFC 8252 §7.3): the browser brings the code to /callback.
type loopback struct {
	ln     net.Listener
	srv    *http.Server
	state  string
	server string
	result chan callbackResult // the first callback with the right state
}

type callbackResult struct {
	code, state string
	err         error
}

// listenLoopback listens on 127.0.0.1:port (0: any free port).
func listenLoopback(port int, server, state string) (*loopback, error) {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("listen for the sign-in redirect: %w", err)
	}
	l := &loopback{ln: ln, state: state, server: server, result: make(chan callbackResult, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /callback", l.callback)
	l.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	httpstop.Track(l.srv) // browsers open spare connections; they must not hold close
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

// redirectURI is where the authorization server sends the browser back.
func (l *loopback) redirectURI() string {
	return "http://" + l.ln.Addr().String() + "/callback"
}

func (l *loopback) port() int { return l.ln.Addr().(*net.TCPAddr).Port }

// callback answers the browser. A request without the expected state is
// turned away and the wait goes on: anything on this machine can reach
// the port, and must not end the sign-in.
func (l *loopback) callback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	state := q.Get("state")
	if subtle.ConstantTimeCompare([]byte(state), []byte(l.state)) != 1 {
		http.Error(w, "This sign-in link is not the one toolhub is waiting for.", http.StatusBadRequest)
		return
	}
	res := callbackResult{code: q.Get("code"), state: state}
	switch {
	case q.Get("error") != "":
		res.err = fmt.Errorf("the authorization server refused: %s", oauthErrorText(q.Get("error"), q.Get("error_description")))
	case res.code == "":
		res.err = errors.New("the authorization server sent no code")
	}
	select {
	case l.result <- res:
	default: // a second callback: the first one counts
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if res.err != nil {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "<!doctype html><title>toolhub</title><p>Sign-in to %s failed: %s</p>", html.EscapeString(l.server), html.EscapeString(res.err.Error()))
		return
	}
	fmt.Fprintf(w, "<!doctype html><title>toolhub</title><p>toolhub received the sign-in to %s. You can close this window.</p>", html.EscapeString(l.server))
}

// oauthErrorText joins an OAuth error code and its description, clipped.
func oauthErrorText(code, desc string) string {
	if desc == "" {
		return clipText(code, 200)
	}
	return clipText(code+" ("+desc+")", 200)
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// wait returns the callback's code, or an error when it says the user
// refused, timeout passes or ctx ends.
func (l *loopback) wait(ctx context.Context, timeout time.Duration) (callbackResult, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case res := <-l.result:
		return res, res.err
	case <-timer.C:
		return callbackResult{}, fmt.Errorf("no sign-in within %s (open the URL above, or run again with a longer --timeout)", timeout)
	case <-ctx.Done():
		return callbackResult{}, ctx.Err()
	}
}

// close stops listening, letting the answer to the browser finish for up
// to a second.
func (l *loopback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := l.srv.Shutdown(ctx); err != nil {
		_ = l.srv.Close()
	}
}
