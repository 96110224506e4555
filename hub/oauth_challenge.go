package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// maxChallengeBody caps what is read of a probe answer or of protected
// resource metadata.
const maxChallengeBody = 1 << 20

// challenge is what a server says when asked without a token.
type challenge struct {
	// resp is the 401 answer (body closed), for mcp-go to read its
	// resource_metadata; nil when the server did not answer 401.
	resp *http.Response
	// scopes are those of the Bearer challenge, or else the protected
	// resource metadata's scopes_supported.
	scopes []string
}

// probe sends an unauthenticated initialize to spec's URL and reads the
// server's challenge. mcp-go discovers the authorization server from the
// 401 but takes no scopes from it; MCP clients ask for the challenge's
// scope, else for the resource's scopes_supported.
func probe(ctx context.Context, client *http.Client, spec ServerSpec) (challenge, error) {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"toolhub","version":"sign-in"}}}`,
		mcpgo.LATEST_PROTOCOL_VERSION)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, spec.URL, strings.NewReader(body))
	if err != nil {
		return challenge{}, fmt.Errorf("probe %s: %w", spec.Name, err)
	}
	for k, v := range spec.Headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return challenge{}, fmt.Errorf("probe %s: %w", spec.Name, err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxChallengeBody))
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return challenge{}, nil
	}
	ch := challenge{resp: resp}
	var prm string
	for _, h := range resp.Header.Values("WWW-Authenticate") {
		params := bearerParams(h)
		if params == nil {
			continue
		}
		if s := strings.Fields(params["scope"]); len(s) > 0 && ch.scopes == nil {
			ch.scopes = s
		}
		if prm == "" {
			prm = params["resource_metadata"]
		}
	}
	if ch.scopes == nil {
		ch.scopes = supportedScopes(ctx, client, spec.URL, prm)
	}
	return ch, nil
}

// supportedScopes reads scopes_supported from the protected resource
// metadata (RFC 9728) at prm, or at the well-known URL of serverURL. A
// document on another origin than the server's, or none, gives no scopes.
func supportedScopes(ctx context.Context, client *http.Client, serverURL, prm string) []string {
	base, err := url.Parse(serverURL)
	if err != nil {
		return nil
	}
	if prm == "" {
		path := strings.TrimSuffix(base.EscapedPath(), "/")
		prm = base.Scheme + "://" + base.Host + "/.well-known/oauth-protected-resource" + path
	}
	u, err := url.Parse(prm)
	if err != nil || !strings.EqualFold(u.Scheme, base.Scheme) || !strings.EqualFold(u.Host, base.Host) {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, prm, nil)
	if err != nil {
		return nil
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxChallengeBody))
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil
	}
	var doc struct {
		ScopesSupported []string `json:"scopes_supported"`
	}
	if json.Unmarshal(bytes.TrimSpace(data), &doc) != nil {
		return nil
	}
	return doc.ScopesSupported
}

// bearerParams parses the auth-params of a WWW-Authenticate value whose
// scheme is Bearer (RFC 6750 §3), names lowercased; nil for another scheme.
// A value holding several challenges is read up to the next scheme.
func bearerParams(header string) map[string]string {
	scheme, rest, _ := strings.Cut(strings.TrimSpace(header), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return nil
	}
	params := map[string]string{}
	for {
		rest = strings.TrimLeft(rest, " \t,")
		eq := strings.IndexByte(rest, '=')
		if eq <= 0 || strings.ContainsAny(rest[:eq], " \t,\"") {
			return params // the end, or the next challenge's scheme
		}
		name := strings.ToLower(rest[:eq])
		rest = strings.TrimLeft(rest[eq+1:], " \t")
		var value string
		value, rest = authParamValue(rest)
		if _, dup := params[name]; !dup {
			params[name] = value
		}
	}
}

// authParamValue reads a token or a quoted-string (with \ escapes) from
// the start of s and returns it with the rest of s.
func authParamValue(s string) (string, string) {
	if !strings.HasPrefix(s, `"`) {
		end := strings.IndexAny(s, " \t,")
		if end < 0 {
			return s, ""
		}
		return s[:end], s[end:]
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), s[i+1:]
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), ""
}
