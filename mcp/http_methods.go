package mcp

import (
	"fmt"
	"net/http"
)

// allowedMethods are the HTTP methods of the Streamable HTTP transport: POST
// carries messages, GET opens the event stream, DELETE ends a legacy
// session; HEAD and OPTIONS come with them.
const allowedMethods = "GET, POST, DELETE, HEAD, OPTIONS"

// allowMethods answers 405, naming the allowed methods, to a request of any
// other method, and 204 to an OPTIONS request that is not a CORS preflight
// (preflights are answered before, by originPolicy.cors). mcp-go alone
// would answer 404, as if the endpoint were not there.
func allowMethods(pace bodyPace, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodPost, http.MethodDelete, http.MethodHead:
			next.ServeHTTP(w, r)
		case http.MethodOptions:
			pace.refuseUnread(w, r)
			w.Header().Set("Allow", allowedMethods)
			w.WriteHeader(http.StatusNoContent)
		default:
			pace.refuseUnread(w, r)
			w.Header().Set("Allow", allowedMethods)
			http.Error(w, fmt.Sprintf("method %s is not allowed here: the MCP endpoint takes %s",
				r.Method, allowedMethods), http.StatusMethodNotAllowed)
		}
	})
}
