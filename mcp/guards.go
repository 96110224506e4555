package mcp

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// originPolicy decides which browser origins may talk to the endpoint.
// mcp-go's own guard checks only the Host header (against DNS rebinding);
// a page on another site that reaches 127.0.0.1 directly carries a loopback
// Host but its own Origin, which only this check stops.
type originPolicy struct {
	allowed map[string]bool // normalised origins
	// loopbackCORS gives pages of this machine CORS (originPolicy.cors):
	// set when the endpoint needs a token, which such a page must then be
	// given. Without one, only the origins named get it, so that no page a
	// local program serves can use an endpoint that asks for nothing.
	loopbackCORS bool
}

// newOriginPolicy accepts loopback origins and those listed in allow
// (scheme://host[:port], as browsers send them).
func newOriginPolicy(allow []string) (*originPolicy, error) {
	p := &originPolicy{allowed: make(map[string]bool, len(allow))}
	for _, a := range allow {
		norm, ok := normalizeOrigin(a)
		if !ok {
			return nil, fmt.Errorf("allowed origin %q: want scheme://host[:port]", a)
		}
		p.allowed[norm] = true
	}
	return p, nil
}

// permits reports whether a request with this Origin header value may
// proceed. Requests without Origin (every non-browser client) may.
func (p *originPolicy) permits(origin string) bool {
	if origin == "" {
		return true
	}
	norm, ok := normalizeOrigin(origin)
	if !ok {
		return false // "null", garbage
	}
	return isLoopbackOrigin(norm) || p.allowed[norm]
}

// grantsCORS reports whether a page of origin gets CORS headers.
func (p *originPolicy) grantsCORS(origin string) bool {
	norm, ok := normalizeOrigin(origin)
	return ok && (p.allowed[norm] || p.loopbackCORS && isLoopbackOrigin(norm))
}

// middleware answers 403, without waiting for the body, to requests from an
// origin the policy refuses.
func (p *originPolicy) middleware(pace bodyPace, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); !p.permits(origin) {
			pace.refuseUnread(w, r)
			http.Error(w, fmt.Sprintf("Forbidden: origin %q may not use this endpoint "+
				"(toolhub serve --allow-origin adds one)", origin), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// normalizeOrigin lower-cases an http(s) origin and drops a default port.
func normalizeOrigin(s string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") ||
		u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, true
}

// isLoopbackOrigin reports whether a normalised origin names this machine:
// localhost or a loopback address, on any port.
func isLoopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	return isLoopbackHost(u.Hostname())
}

// isLoopbackHost reports whether host (no port) is localhost or a loopback
// IP address.
func isLoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// isLoopbackAddr reports whether a listen address host:port binds only
// loopback.
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	return err == nil && host != "" && isLoopbackHost(host)
}
