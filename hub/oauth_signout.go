package hub

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	transport "github.com/mark3labs/mcp-go/client/transport"
)

// SignOut forgets spec's sign-in. When the authorization server has a
// revocation endpoint (RFC 7009), the refresh and access tokens are
// revoked there first; revoked reports whether that happened. A failed
// revocation is returned beside a successful forget: the sign-in is gone
// from this machine either way.
func (c *Credentials) SignOut(ctx context.Context, spec ServerSpec, client *http.Client) (revoked bool, err error) {
	rec, err := c.load(spec.Name)
	if err != nil {
		return false, err
	}
	var revokeErr error
	if rec.Token != nil && spec.Transport == TransportHTTP {
		revoked, revokeErr = c.revoke(ctx, spec, rec, client)
	}
	if err := c.Forget(spec.Name); err != nil {
		return false, err
	}
	if revokeErr != nil {
		return false, fmt.Errorf("sign out of %s: forgotten here, but not revoked: %w", spec.Name, revokeErr)
	}
	return revoked, nil
}

// revoke sends the stored tokens to the revocation endpoint, if any.
func (c *Credentials) revoke(ctx context.Context, spec ServerSpec, rec signInRecord, client *http.Client) (bool, error) {
	if client == nil {
		client = &http.Client{Timeout: defaultSignInHTTPTimeout}
	}
	cfg := c.oauthConfig(spec, rec, "")
	cfg.HTTPClient = client
	handler := transport.NewOAuthHandler(cfg)
	base, err := url.Parse(spec.URL)
	if err != nil {
		return false, err
	}
	base.RawQuery, base.Fragment = "", ""
	handler.SetBaseURL(base.String())
	meta, err := handler.GetServerMetadata(ctx)
	if err != nil {
		return false, err
	}
	if meta.RevocationEndpoint == "" {
		return false, nil
	}
	for _, tok := range []struct{ value, hint string }{
		{rec.Token.RefreshToken, "refresh_token"}, {rec.Token.AccessToken, "access_token"},
	} {
		if tok.value == "" {
			continue
		}
		if err := postRevocation(ctx, client, meta.RevocationEndpoint, cfg, tok.value, tok.hint); err != nil {
			return false, err
		}
	}
	return true, nil
}

// postRevocation revokes one token, authenticating as the client does at
// the token endpoint (a public client sends only its id).
func postRevocation(ctx context.Context, client *http.Client, endpoint string, cfg transport.OAuthConfig, token, hint string) error {
	form := url.Values{"token": {token}, "token_type_hint": {hint}}
	basic := cfg.ClientSecret != "" && cfg.TokenEndpointAuthMethod == "client_secret_basic"
	if !basic {
		form.Set("client_id", cfg.ClientID)
		if cfg.ClientSecret != "" {
			form.Set("client_secret", cfg.ClientSecret)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if basic {
		req.SetBasicAuth(url.QueryEscape(cfg.ClientID), url.QueryEscape(cfg.ClientSecret))
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("revoke: %w", err) // the URL is the endpoint's; the token is in the body
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxChallengeBody))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("revoke: the authorization server answered %s", resp.Status)
	}
	return nil
}
