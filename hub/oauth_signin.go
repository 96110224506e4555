package hub

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	transport "github.com/mark3labs/mcp-go/client/transport"
)

// defaultSignInHTTPTimeout bounds each request of a sign-in or sign-out.
const defaultSignInHTTPTimeout = 30 * time.Second

// SignInOptions tune SignIn. The zero value waits 5 minutes and opens no
// browser.
type SignInOptions struct {
	// ShowURL receives the authorization URL before the browser is
	// opened, so that a user without a browser here can paste it.
	ShowURL func(authURL string)
	// OpenBrowser opens the authorization URL. Its error does not end the
	// sign-in: the URL was shown, and the wait goes on.
	OpenBrowser func(ctx context.Context, authURL string) error
	// Timeout bounds the wait for the browser to come back (default 5m).
	Timeout time.Duration
	// HTTPClient reaches the server and its authorization server
	// (default: a client with a 30 s timeout).
	HTTPClient *http.Client
	// ClientName is sent when the client is registered on the fly
	// (default "toolhub").
	ClientName string
}

// SignIn signs the user in to the http server of spec with OAuth 2.1: it
// asks the server for its challenge, discovers the authorization server
// (RFC 9728, RFC 8414), registers a client if the config names none
// (RFC 7591), sends the browser to the authorization URL (PKCE S256, the
// resource parameter of RFC 8707) with a redirect to a loopback listener
// on 127.0.0.1 (RFC 8252), exchanges the code and stores the token. A
// running hub waiting for this server's sign-in connects again.
func (c *Credentials) SignIn(ctx context.Context, spec ServerSpec, opts SignInOptions) (SignInStatus, error) {
	if spec.Transport != TransportHTTP {
		return SignInStatus{}, fmt.Errorf("sign in to %s: only http (streamable HTTP) servers sign in, not %s", spec.Name, spec.Transport)
	}
	opts = opts.withDefaults()
	ch, err := probe(ctx, opts.HTTPClient, spec)
	if err != nil {
		return SignInStatus{}, fmt.Errorf("sign in to %s: %w", spec.Name, err)
	}
	if ch.resp == nil && spec.OAuth == nil && !ch.published {
		return SignInStatus{}, fmt.Errorf("sign in to %s: the server answers without sign-in and publishes no OAuth metadata; nothing to do", spec.Name)
	}
	state, err := transport.GenerateState()
	if err != nil {
		return SignInStatus{}, fmt.Errorf("sign in to %s: %w", spec.Name, err)
	}
	rec, err := c.load(spec.Name)
	if err != nil {
		return SignInStatus{}, err
	}
	lb, err := listenLoopback(registeredPort(spec, rec), spec.Name, state)
	if err != nil {
		lb, err = listenLoopback(0, spec.Name, state) // the registered port is taken
	}
	if err != nil {
		return SignInStatus{}, fmt.Errorf("sign in to %s: %w", spec.Name, err)
	}
	defer lb.close()

	handler, err := c.signInHandler(ctx, spec, rec, ch, lb.redirectURI(), opts)
	if err != nil {
		return SignInStatus{}, fmt.Errorf("sign in to %s: %w", spec.Name, err)
	}
	verifier, err := transport.GenerateCodeVerifier()
	if err != nil {
		return SignInStatus{}, fmt.Errorf("sign in to %s: %w", spec.Name, err)
	}
	authURL, err := handler.GetAuthorizationURL(ctx, state, transport.GenerateCodeChallenge(verifier))
	if err != nil {
		return SignInStatus{}, fmt.Errorf("sign in to %s: %w", spec.Name, err)
	}
	opts.ShowURL(authURL)
	_ = opts.OpenBrowser(ctx, authURL)
	res, err := lb.wait(ctx, opts.Timeout)
	if err != nil {
		return SignInStatus{}, fmt.Errorf("sign in to %s: %w", spec.Name, err)
	}
	if err := handler.ProcessAuthorizationResponse(ctx, res.code, res.state, verifier); err != nil {
		return SignInStatus{}, fmt.Errorf("sign in to %s: exchange the code for a token: %w", spec.Name, err)
	}
	return c.Status(spec)
}

func (o SignInOptions) withDefaults() SignInOptions {
	if o.ShowURL == nil {
		o.ShowURL = func(string) {}
	}
	if o.OpenBrowser == nil {
		o.OpenBrowser = func(context.Context, string) error { return nil }
	}
	o.Timeout = orDefault(o.Timeout, 5*time.Minute)
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: defaultSignInHTTPTimeout}
	}
	if o.ClientName == "" {
		o.ClientName = "toolhub"
	}
	return o
}

// registeredPort is the loopback port the stored client was registered
// with, so that it can be used again; 0 for any.
func registeredPort(spec ServerSpec, rec signInRecord) int {
	if rec.ClientID == "" || rec.RedirectURI == "" || (spec.OAuth != nil && spec.OAuth.ClientID != "") {
		return 0
	}
	u, err := url.Parse(rec.RedirectURI)
	if err != nil || u.Hostname() != "127.0.0.1" {
		return 0
	}
	var port int
	_, _ = fmt.Sscanf(u.Port(), "%d", &port)
	return port
}

// signInHandler builds mcp-go's OAuth handler for one sign-in, with the
// scopes chosen and the client registered when the config names none.
func (c *Credentials) signInHandler(ctx context.Context, spec ServerSpec, rec signInRecord, ch challenge, redirectURI string, opts SignInOptions) (*transport.OAuthHandler, error) {
	configured := spec.OAuth != nil && spec.OAuth.ClientID != ""
	if !configured && rec.RedirectURI != redirectURI {
		// Registered for another redirect URI: register again.
		rec.ClientID, rec.ClientSecret, rec.TokenEndpointAuthMethod = "", "", ""
	}
	if rec.AuthServerMetadataURL != ch.authServerMetadataURL {
		rec.AuthServerMetadataURL = ch.authServerMetadataURL
		err := c.update(spec.Name, func(r *signInRecord) { r.AuthServerMetadataURL = ch.authServerMetadataURL })
		if err != nil {
			return nil, err
		}
	}
	cfg := c.oauthConfig(spec, rec, redirectURI)
	cfg.HTTPClient = opts.HTTPClient
	if len(cfg.Scopes) == 0 {
		cfg.Scopes = ch.scopes
	}
	handler := transport.NewOAuthHandler(cfg)
	base, err := url.Parse(spec.URL)
	if err != nil {
		return nil, err
	}
	base.RawQuery, base.Fragment = "", ""
	handler.SetBaseURL(base.String())
	handler.HandleUnauthorizedResponse(ch.resp)
	if cfg.ClientID != "" {
		return handler, nil
	}
	if err := handler.RegisterClient(ctx, opts.ClientName); err != nil {
		return nil, fmt.Errorf("register a client: %w", err)
	}
	err = c.update(spec.Name, func(r *signInRecord) {
		r.ClientID, r.ClientSecret = handler.GetClientID(), handler.GetClientSecret()
		r.TokenEndpointAuthMethod = handler.GetTokenEndpointAuthMethod()
		r.RedirectURI = redirectURI
		r.Token = nil // a token belongs to the client it was issued to
	})
	if err != nil {
		return nil, err
	}
	if handler.GetClientID() == "" {
		return nil, errors.New("register a client: the authorization server returned no client_id")
	}
	return handler, nil
}
