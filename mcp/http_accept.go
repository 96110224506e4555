package mcp

import (
	"net/http"
	"strconv"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// What a client's Accept header allows decides how a POST is answered.
// The specification asks clients to accept both application/json and
// text/event-stream; one that names JSON alone is answered with JSON alone,
// never an event stream: what a call would send ahead of its result
// (progress, log messages) is dropped, and a request to the client during
// the call fails at once, as it could not reach the client.

// refuseUnacceptable answers 406 to a request whose answer can only be an
// event stream, from a client that does not accept one: a GET (the
// session's stream) or a 2026-07-28 subscriptions/listen. mcp-go would
// open the stream anyway, or, through honourAccept, hold a listen open
// without ever writing to it.
func refuseUnacceptable(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if acceptsEvents(r.Header.Values("Accept")) {
			next.ServeHTTP(w, r)
			return
		}
		switch r.Method {
		case http.MethodGet:
			writeRPCStatus(w, http.StatusNotAcceptable, nil, mcpgo.INVALID_REQUEST,
				"the GET stream is an event stream: the Accept header must name text/event-stream")
			return
		case http.MethodPost:
			if env, ok := requestEnvelope(r); ok && env.Method == string(mcpgo.MethodSubscriptionsListen) && env.hasID() {
				writeRPCStatus(w, http.StatusNotAcceptable, env.ID, mcpgo.INVALID_REQUEST,
					"subscriptions/listen is answered with an event stream: the Accept header must name text/event-stream")
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// acceptsMedia reports whether an Accept header holds a media range that
// match takes, given the range in lower case and its parameters.
func acceptsMedia(accept []string, match func(media, params string) bool) bool {
	for _, v := range accept {
		for part := range strings.SplitSeq(v, ",") {
			media, params, _ := strings.Cut(part, ";")
			if match(strings.ToLower(strings.TrimSpace(media)), params) {
				return true
			}
		}
	}
	return false
}

// acceptsJSON reports whether an Accept header names application/json.
func acceptsJSON(accept []string) bool {
	return acceptsMedia(accept, func(media, _ string) bool { return media == "application/json" })
}

// acceptsEvents reports whether an Accept header lets the response be an
// event stream: it names text/event-stream, text/* or */* without q=0, or
// there is no Accept header (which accepts anything).
func acceptsEvents(accept []string) bool {
	return len(accept) == 0 || acceptsMedia(accept, func(media, params string) bool {
		switch media {
		case "text/event-stream", "text/*", "*/*":
			return !refusedByQuality(params)
		}
		return false
	})
}

// refusedByQuality reports whether a media range's parameters give it
// q=0, which marks it as not acceptable.
func refusedByQuality(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		name, value, _ := strings.Cut(p, "=")
		if !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		return err == nil && q == 0
	}
	return false
}

// honourAccept keeps mcp-go from answering a POST as an event stream when
// its client does not accept one. mcp-go streams only through a writer that
// can flush, and answers with JSON alone through one that cannot.
func honourAccept(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && !acceptsEvents(r.Header.Values("Accept")) {
			w = unflushable{w}
		}
		next.ServeHTTP(w, r)
	})
}

// unflushable is a response writer without Flush. Unwrap still reaches the
// connection's deadlines through http.ResponseController.
type unflushable struct{ http.ResponseWriter }

func (w unflushable) Unwrap() http.ResponseWriter { return w.ResponseWriter }
