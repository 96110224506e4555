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
	// authServerMetadataURL is where the authorization server's metadata
	// is when mcp-go would not find it: the protected resource metadata is
	// only at the origin's root, or there is none and the metadata is at
	// the origin's root (2025-03-26).
	authServerMetadataURL string
	// published is set when the server publishes OAuth metadata at all.
	published bool
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
		// Some servers ask for a token only after initialize.
		var ch challenge
		discover(ctx, client, spec, "", &ch)
		return ch, nil
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
	discover(ctx, client, spec, prm, &ch)
	return ch, nil
}

// discover finds what mcp-go's discovery misses, into ch: the protected
// resource metadata (RFC 9728) at the URL the challenge advertised, else at
// the path-based well-known URL, else at the origin's root one, which
// mcp-go does not try; the scopes_supported there; and with no such
// document at all, authorization server metadata at the origin's root, as
// servers of the 2025-03-26 spec publish it (mcp-go looks below the path).
func discover(ctx context.Context, client *http.Client, spec ServerSpec, advertised string, ch *challenge) {
	base, err := url.Parse(spec.URL)
	if err != nil {
		return
	}
	origin := base.Scheme + "://" + base.Host
	candidates := []string{origin + "/.well-known/oauth-protected-resource" + strings.TrimSuffix(base.EscapedPath(), "/")}
	if advertised != "" {
		candidates = []string{advertised}
	} else if candidates[0] != origin+"/.well-known/oauth-protected-resource" {
		candidates = append(candidates, origin+"/.well-known/oauth-protected-resource")
	}
	for i, prm := range candidates {
		var doc struct {
			Resource             string   `json:"resource"`
			AuthorizationServers []string `json:"authorization_servers"`
			ScopesSupported      []string `json:"scopes_supported"`
		}
		if !getJSON(ctx, client, origin, prm, &doc) {
			continue
		}
		ch.published = true
		if ch.scopes == nil {
			ch.scopes = doc.ScopesSupported
		}
		if i > 0 && len(doc.AuthorizationServers) > 0 && bindsTo(doc.Resource, base) {
			// mcp-go takes a document from anywhere but the path-based URL
			// only when its resource is the server's URL exactly; the root
			// one names the origin. Point it at the authorization server.
			ch.authServerMetadataURL = authServerMetadata(ctx, client, doc.AuthorizationServers[0])
		}
		return
	}
	if advertised != "" || (spec.OAuth != nil && spec.OAuth.AuthServerMetadataURL != "") {
		return
	}
	for _, meta := range []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"} {
		var doc struct {
			TokenEndpoint string `json:"token_endpoint"`
		}
		if getJSON(ctx, client, origin, meta, &doc) && doc.TokenEndpoint != "" {
			ch.authServerMetadataURL, ch.published = meta, true
			return
		}
	}
}

// bindsTo reports whether a root document's resource names the server:
// its origin, or a path above the server's.
func bindsTo(resource string, server *url.URL) bool {
	r, err := url.Parse(resource)
	if err != nil || !strings.EqualFold(r.Scheme, server.Scheme) || !strings.EqualFold(r.Host, server.Host) {
		return false
	}
	p := strings.TrimSuffix(r.EscapedPath(), "/")
	return p == "" || p == strings.TrimSuffix(server.EscapedPath(), "/") || strings.HasPrefix(server.EscapedPath(), p+"/")
}

// authServerMetadata finds the metadata of the authorization server
// issuer (RFC 8414 with the path inserted, then OpenID Connect), or "".
func authServerMetadata(ctx context.Context, client *http.Client, issuer string) string {
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" {
		return ""
	}
	origin, path := u.Scheme+"://"+u.Host, strings.Trim(u.EscapedPath(), "/")
	candidates := []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"}
	if path != "" {
		candidates = []string{origin + "/.well-known/oauth-authorization-server/" + path,
			origin + "/.well-known/openid-configuration/" + path, origin + "/" + path + "/.well-known/openid-configuration"}
	}
	for _, c := range candidates {
		var doc struct {
			Issuer string `json:"issuer"`
		}
		if getJSON(ctx, client, origin, c, &doc) && strings.TrimSuffix(doc.Issuer, "/") == strings.TrimSuffix(issuer, "/") {
			return c
		}
	}
	return ""
}

// getJSON fetches a JSON document on origin into v and reports whether
// it answered 200 with one. A URL on another origin is not fetched.
func getJSON(ctx context.Context, client *http.Client, origin, target string, v any) bool {
	u, err := url.Parse(target)
	if err != nil || !strings.EqualFold(u.Scheme+"://"+u.Host, origin) {
		return false
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return false
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxChallengeBody))
	return err == nil && resp.StatusCode == http.StatusOK && json.Unmarshal(bytes.TrimSpace(data), v) == nil
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
