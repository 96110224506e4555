package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// checkSessionIDs answers what the Streamable HTTP specification asks of a
// server that keeps sessions, where mcp-go answers otherwise:
//
//   - a JSON-RPC batch (a JSON array) gets a JSON-RPC error saying batches
//     are not supported, not that the body is not JSON;
//   - a message no peer can answer (an id without a method or an answer, a
//     null id on a request, a method that is not a string) gets Invalid
//     Request (envelopeProblem), not 202 or "not valid json"; params that
//     are not an object (paramsProblem), and a legacy-era initialize
//     without a protocol version (initializeProblem), get Invalid Params;
//   - a legacy-era request other than initialize that carries no
//     Mcp-Session-Id gets 400, not 404 (404 tells a client its session
//     ended and it should initialize again);
//   - a legacy-era request whose Mcp-Session-Id is not one this server
//     issued, or one that ended, gets 404 with a JSON-RPC error saying so
//     (mcp-go answers a POST with plain text, and would open an event
//     stream for a GET with an invented id, making it a session).
//
// Requests of the 2026-07-28 era carry no session at all and pass on
// unchanged; the era is decided per request as mcp-go decides it, from the
// Mcp-Protocol-Version header or the protocol version in params._meta.
func checkSessionIDs(ids mcpserver.SessionIdManager, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := readBody(r) // read once, by limitBody
		if r.Method == http.MethodPost && isBatch(body) {
			writeBadRequest(w, nil, mcpgo.INVALID_REQUEST,
				"JSON-RPC batches are not supported: send each message in a request of its own")
			return
		}
		if r.Method == http.MethodPost {
			m, err := readMessage(r)
			if id, code, problem := envelopeProblemOf(body, m, err); problem != "" {
				if code == mcpgo.INVALID_REQUEST {
					problem = "invalid request: " + problem
				}
				writeBadRequest(w, id, code, problem)
				return
			}
		}
		if modernEra(r.Header, body) {
			next.ServeHTTP(w, r)
			return
		}
		id := r.Header.Get(mcpserver.HeaderKeySessionID)
		switch r.Method {
		case http.MethodPost:
			if id != "" {
				if ended, err := ids.Validate(id); err != nil || ended {
					env, _ := requestEnvelope(r)
					writeNoSession(w, env.ID)
					return
				}
				break
			}
			env, ok := requestEnvelope(r)
			if problem := initializeProblem(env); ok && problem != "" {
				writeBadRequest(w, env.ID, mcpgo.INVALID_PARAMS, problem)
				return
			}
			if ok && env.Method != string(mcpgo.MethodInitialize) {
				writeBadRequest(w, env.ID, mcpgo.INVALID_REQUEST,
					"Mcp-Session-Id header missing: send initialize first, then the id it returned with every request")
				return
			}
		case http.MethodGet, http.MethodDelete:
			if id == "" {
				http.Error(w, "Bad Request: Mcp-Session-Id header missing", http.StatusBadRequest)
				return
			}
			if ended, err := ids.Validate(id); err != nil || ended {
				writeNoSession(w, nil)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// isBatch reports whether a request body is a JSON array.
func isBatch(body []byte) bool {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	return len(trimmed) > 0 && trimmed[0] == '['
}

// modernEra reports whether a request belongs to protocol version
// 2026-07-28 or later, by the rule mcp-go applies: the Mcp-Protocol-Version
// header or params._meta names such a version.
func modernEra(h http.Header, body []byte) bool {
	switch v := h.Get(mcpgo.HeaderProtocolVersion); {
	case mcpgo.IsModernProtocol(v):
		return true
	case v != "":
		// An older version in the header: a _meta naming 2026-07-28 would
		// be a mismatch, which mcp-go refuses either way.
		return false
	}
	return mcpgo.IsModernProtocol(metaVersion(body))
}

// sessionNotFound is the JSON-RPC error code of the 404 answering an
// unknown session, as the TypeScript SDK's servers answer it.
const sessionNotFound = -32001

// writeNoSession answers a request of a session this server does not know
// (it ended, or never existed) with 404 and a JSON-RPC error, under the
// request's id when it has one.
func writeNoSession(w http.ResponseWriter, id json.RawMessage) {
	if !validID(id) {
		id = json.RawMessage("null")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write(rpcError(id, sessionNotFound,
		"session not found: it ended or never existed; send initialize again for a new one"))
}

// writeBadRequest answers a JSON-RPC error with HTTP 400; id is the
// request's raw id, nil or empty when it has none.
func writeBadRequest(w http.ResponseWriter, id json.RawMessage, code int, msg string) {
	writeRPCStatus(w, http.StatusBadRequest, id, code, msg)
}

// writeRPCStatus answers a JSON-RPC error with HTTP status; id is the
// request's raw id, nil or empty when it has none.
func writeRPCStatus(w http.ResponseWriter, status int, id json.RawMessage, code int, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(rpcError(id, code, msg))
}
