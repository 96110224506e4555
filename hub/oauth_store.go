package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	transport "github.com/mark3labs/mcp-go/client/transport"
)

// SecretStore keeps named secrets: the system keychain, or a private file.
type SecretStore interface {
	Get(name string) (string, error)
	Set(name, value string) error
	Delete(name string) error
}

// refreshAhead is how long before its expiry a token is refreshed, so that
// no request goes out with a token about to lapse; a token that lives less
// than twice as long is refreshed after half its life.
const refreshAhead = 60 * time.Second

// Credentials keeps each remote server's OAuth sign-in (its tokens and its
// dynamically registered client) in a secret store, as JSON under the name
// "oauth:SERVER". Nothing it returns or logs carries a token.
type Credentials struct {
	store    SecretStore
	notFound error // what store returns for a missing name

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every save or delete
}

// NewCredentials keeps sign-ins in store, whose Get returns an error
// matching notFound (errors.Is) for a name it does not hold.
func NewCredentials(store SecretStore, notFound error) *Credentials {
	return &Credentials{store: store, notFound: notFound, changed: make(chan struct{})}
}

// signInRecord is what is stored for one server.
type signInRecord struct {
	Token *transport.Token `json:"token,omitempty"`
	// The client registered on the fly (RFC 7591), with the redirect URI it
	// was registered for; empty for a client named in the config.
	ClientID                string `json:"clientId,omitempty"`
	ClientSecret            string `json:"clientSecret,omitempty"`
	TokenEndpointAuthMethod string `json:"tokenEndpointAuthMethod,omitempty"`
	RedirectURI             string `json:"redirectUri,omitempty"`
	// Where sign-in found authorization server metadata that mcp-go's
	// discovery would miss.
	AuthServerMetadataURL string `json:"authServerMetadataUrl,omitempty"`
}

func secretName(server string) string { return "oauth:" + server }

// load reads a server's record; a missing one is the zero record.
func (c *Credentials) load(server string) (signInRecord, error) {
	var rec signInRecord
	raw, err := c.store.Get(secretName(server))
	switch {
	case err != nil && c.notFound != nil && errors.Is(err, c.notFound):
		return rec, nil
	case err != nil:
		return rec, fmt.Errorf("read sign-in of %s: %w", server, err)
	}
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		// The message of a JSON syntax error quotes no input.
		return signInRecord{}, fmt.Errorf("read sign-in of %s: stored value is not valid: %w", server, err)
	}
	return rec, nil
}

// update changes a server's record under the lock and stores it.
func (c *Credentials) update(server string, change func(*signInRecord)) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	rec, err := c.load(server)
	if err != nil {
		return err
	}
	change(&rec)
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("save sign-in of %s: %w", server, err)
	}
	if err := c.store.Set(secretName(server), string(raw)); err != nil {
		return fmt.Errorf("save sign-in of %s: %w", server, err)
	}
	c.notifyLocked()
	return nil
}

// Forget deletes a server's tokens and registered client.
func (c *Credentials) Forget(server string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.store.Delete(secretName(server)); err != nil && (c.notFound == nil || !errors.Is(err, c.notFound)) {
		return fmt.Errorf("delete sign-in of %s: %w", server, err)
	}
	c.notifyLocked()
	return nil
}

func (c *Credentials) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// changes is closed on the next save or delete made through c.
func (c *Credentials) changes() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

// fingerprint identifies the stored record, to notice a sign-in made by
// another process; it is compared, never shown.
func (c *Credentials) fingerprint(server string) string {
	raw, err := c.store.Get(secretName(server))
	if err != nil {
		return ""
	}
	return raw
}

// absent reports whether the store says it holds no sign-in for server
// (a failed read is not taken for one).
func (c *Credentials) absent(server string) bool {
	_, err := c.store.Get(secretName(server))
	return err != nil && c.notFound != nil && errors.Is(err, c.notFound)
}

// TokenStore is mcp-go's view of one server's token.
func (c *Credentials) TokenStore(server string) transport.TokenStore {
	return &tokenStore{creds: c, server: server}
}

// tokenStore adapts Credentials to transport.TokenStore for one server.
type tokenStore struct {
	creds  *Credentials
	server string
}

// GetToken returns the stored token, its expiry moved refreshAhead earlier
// so that mcp-go, which refreshes only expired tokens, refreshes in time.
func (s *tokenStore) GetToken(ctx context.Context) (*transport.Token, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rec, err := s.creds.load(s.server)
	if err != nil {
		return nil, err
	}
	if rec.Token == nil || rec.Token.AccessToken == "" {
		return nil, transport.ErrNoToken
	}
	tok := *rec.Token
	if !tok.ExpiresAt.IsZero() {
		ahead := refreshAhead
		if life := time.Duration(tok.ExpiresIn) * time.Second; life > 0 && life < 2*refreshAhead {
			ahead = life / 2
		}
		tok.ExpiresAt = tok.ExpiresAt.Add(-ahead)
	}
	return &tok, nil
}

// SaveToken stores a new token beside the server's registered client.
func (s *tokenStore) SaveToken(ctx context.Context, tok *transport.Token) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	saved := *tok
	return s.creds.update(s.server, func(rec *signInRecord) { rec.Token = &saved })
}

// SignInState says whether a server is signed in.
type SignInState string

// The sign-in states of a remote server.
const (
	SignedIn      SignInState = "signed-in"
	NeedsSignIn   SignInState = "needs-sign-in"
	NotUsingOAuth SignInState = "not-using-oauth"
)

// SignInStatus describes one server's sign-in without any secret.
type SignInStatus struct {
	Server string      `json:"server"`
	State  SignInState `json:"state"`
	// Expires is when the access token lapses (zero: unknown or never);
	// a refresh token renews it without the user.
	Expires     time.Time `json:"expires,omitzero"`
	Refreshable bool      `json:"refreshable"`
	Scopes      []string  `json:"scopes,omitempty"`
	// RegisteredClient is set when the client was registered on the fly.
	RegisteredClient bool `json:"registeredClient"`
}

// Status reports spec's sign-in. A server without OAuth settings and
// without a stored sign-in is not using OAuth, as far as toolhub knows.
func (c *Credentials) Status(spec ServerSpec) (SignInStatus, error) {
	st := SignInStatus{Server: spec.Name, State: NotUsingOAuth}
	rec, err := c.load(spec.Name)
	if err != nil {
		return st, err
	}
	st.RegisteredClient = rec.ClientID != ""
	switch {
	case rec.Token != nil && rec.Token.AccessToken != "":
		st.State = SignedIn
		st.Expires = rec.Token.ExpiresAt
		st.Refreshable = rec.Token.RefreshToken != ""
		st.Scopes = strings.Fields(rec.Token.Scope)
		if rec.Token.IsExpired() && !st.Refreshable {
			st.State = NeedsSignIn
		}
	case spec.OAuth != nil || st.RegisteredClient:
		st.State = NeedsSignIn
	}
	return st, nil
}

// uses reports whether the hub should connect to spec with OAuth: the
// config asks for it, or a sign-in is stored.
func (c *Credentials) uses(spec ServerSpec) bool {
	if spec.OAuth != nil {
		return true
	}
	if c == nil {
		return false
	}
	rec, err := c.load(spec.Name)
	return err != nil || rec.Token != nil || rec.ClientID != ""
}

// oauthConfig is mcp-go's OAuth configuration for spec: the client named
// in the config, or else the one registered on the fly (rec), and the
// server's token store. redirectURI overrides the stored one.
func (c *Credentials) oauthConfig(spec ServerSpec, rec signInRecord, redirectURI string) transport.OAuthConfig {
	cfg := transport.OAuthConfig{
		RedirectURI:           rec.RedirectURI,
		TokenStore:            c.TokenStore(spec.Name),
		PKCEEnabled:           true,
		AuthServerMetadataURL: rec.AuthServerMetadataURL,
	}
	if o := spec.OAuth; o != nil {
		cfg.ClientID, cfg.ClientSecret = o.ClientID, o.ClientSecret
		cfg.Scopes = o.Scopes
		if o.AuthServerMetadataURL != "" {
			cfg.AuthServerMetadataURL = o.AuthServerMetadataURL
		}
	}
	if cfg.ClientID == "" {
		cfg.ClientID, cfg.ClientSecret = rec.ClientID, rec.ClientSecret
		cfg.TokenEndpointAuthMethod = rec.TokenEndpointAuthMethod
	}
	if redirectURI != "" {
		cfg.RedirectURI = redirectURI
	}
	return cfg
}
