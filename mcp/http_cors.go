package mcp

import (
	"net/http"
	"slices"
	"strings"
)

// corsHeaders are the request headers a browser client may send: those of
// the Streamable HTTP transport in both protocol eras (the routing headers
// of 2026-07-28 included). A preflight asking for others (a tool's
// Mcp-Param-* headers) is granted those too.
var corsHeaders = []string{"Content-Type", "Authorization", "Mcp-Session-Id", "Mcp-Protocol-Version",
	"Mcp-Method", "Mcp-Name", "Last-Event-ID"}

// corsExposed are the response headers a page may read: the session id it
// must send back, and what a 401 says of the sign-in.
const corsExposed = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate"

// corsMaxAge is how long a browser may keep a preflight's answer, in
// seconds.
const corsMaxAge = "600"

// cors lets pages use the endpoint: one --allow-origin names and, when the
// endpoint needs a token, a page of this machine on another port (the MCP
// Inspector's, say; grantsCORS). It runs after the Origin check and before
// the token check: a preflight, which browsers send without credentials,
// is answered here (204), and every other answer to such a page, a 401
// included, carries the headers that let the page read it.
func (p *originPolicy) cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" {
			w.Header().Add("Vary", "Origin")
		}
		if origin != "" && p.grantsCORS(origin) {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Expose-Headers", corsExposed)
		}
		if !isPreflight(r) {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
		h.Set("Access-Control-Allow-Headers", strings.Join(preflightHeaders(r.Header.Get("Access-Control-Request-Headers")), ", "))
		h.Set("Access-Control-Max-Age", corsMaxAge)
		w.WriteHeader(http.StatusNoContent)
	})
}

// preflightHeaders is corsHeaders and whatever other headers a preflight
// asks for (comma-separated, any case).
func preflightHeaders(requested string) []string {
	out := slices.Clone(corsHeaders)
	for _, name := range strings.Split(requested, ",") {
		name = http.CanonicalHeaderKey(strings.TrimSpace(name))
		if name != "" && !slices.Contains(out, name) && validHeaderName(name) {
			out = append(out, name)
		}
	}
	return out
}

// validHeaderName reports whether name is an HTTP token, so that nothing
// else is echoed into a response header.
func validHeaderName(name string) bool {
	for _, c := range name {
		if !(c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// isPreflight reports whether r is a CORS preflight, which by design
// carries no credentials.
func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
}
