package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// envelopeProblem says what makes a POST body a message no JSON-RPC peer
// can answer, where mcp-go would take it for a notification and answer 202
// (the client then waits for an answer forever) or call valid JSON "not
// valid json" (invalid request), or a request whose params are wrong in a
// way mcp-go lets through (paramsProblem: invalid params); id is the id to
// answer under (nil for none), code the error's. A body that is not JSON at
// all, or a batch, is left to the checks that name those.
func envelopeProblem(body []byte) (id json.RawMessage, code int, problem string) {
	m, err := decodeMessage(body)
	return envelopeProblemOf(body, &m, err)
}

// envelopeProblemOf is envelopeProblem of body already decoded into m, with
// decoding error err.
func envelopeProblemOf(body []byte, m *rawMessage, err error) (id json.RawMessage, code int, problem string) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] == '[' {
		return nil, 0, ""
	}
	if err != nil {
		if _, notObject := errors.AsType[*json.UnmarshalTypeError](err); notObject {
			return nil, mcpgo.INVALID_REQUEST, "a JSON-RPC message is a JSON object"
		}
		return nil, 0, "" // not JSON: the parser's own answer says so
	}
	null := bytes.Equal(m.ID, []byte("null"))
	hasID := len(m.ID) > 0
	if hasID && validID(m.ID) {
		id = m.ID
	}
	switch {
	case len(m.Method) > 0 && m.Method[0] != '"':
		return id, mcpgo.INVALID_REQUEST, "the method of a JSON-RPC message is a string"
	case hasID && len(m.Method) == 0 && len(m.Result) == 0 && len(m.Error) == 0:
		return id, mcpgo.INVALID_REQUEST, "a message with an id needs a method (a request) or a result or an error (an answer)"
	case null && len(m.Method) > 0:
		return nil, mcpgo.INVALID_REQUEST, "a request's id is a string or an integer, never null; a notification has no id at all"
	case hasID && !null && !validID(m.ID):
		return nil, mcpgo.INVALID_REQUEST, "a request's id is a string or an integer"
	case len(m.Method) > 0 && inexactID(m.ID):
		return id, mcpgo.INVALID_REQUEST, inexactIDProblem
	case len(m.Method) > 0:
		if p := paramsProblem(envelope{ID: m.ID, Params: m.Params}); p != "" {
			return id, mcpgo.INVALID_PARAMS, p
		}
	}
	return nil, 0, ""
}

// inexactIDProblem explains the refusal of an id inexactID rejects.
const inexactIDProblem = "a numeric id beyond ±2^53 (9007199254740992) cannot be answered exactly here: " +
	"use a smaller number or a string"

// inexactID reports whether id is an integer that a float64 does not hold
// exactly: mcp-go decodes numeric ids into one, so its answer would carry
// another id and the client would wait for its own forever. Such ids are
// refused instead, under the id as sent.
func inexactID(id json.RawMessage) bool {
	if len(id) < 16 || id[0] == '"' {
		return false // 15 digits fit
	}
	n, err := strconv.ParseInt(string(id), 10, 64)
	if err != nil {
		// Not an int64: a fraction or an exponent (kept as mcp-go reads
		// them), or an integer past int64's range.
		return !bytes.ContainsAny(id, ".eE")
	}
	return n > 1<<53 || n < -(1<<53)
}

// validID reports whether id is a JSON string or a number.
func validID(id json.RawMessage) bool {
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9'))
}

// paramsProblem says what is wrong with a request's params where mcp-go
// would answer otherwise: params that are not an object (mcp-go answers
// invalid request, or takes an array for no params at all) get invalid
// params (-32602), as JSON-RPC has it. "" when there is nothing to say.
func paramsProblem(env envelope) string {
	if !env.hasID() {
		return "" // a notification is not answered
	}
	params := bytes.TrimSpace(env.Params)
	if len(params) > 0 && params[0] != '{' && !bytes.Equal(params, []byte("null")) {
		return "invalid params: the params of an MCP request are a JSON object"
	}
	return ""
}

// initializeProblem says what is wrong with a legacy-era initialize that
// lacks the protocol version it is negotiated on (mcp-go answers it with a
// version of its own choosing): invalid params. "" for any other message,
// and for a good initialize. (In 2026-07-28 initialize is no method at all,
// which mcp-go answers itself.)
func initializeProblem(env envelope) string {
	if env.Method != string(mcpgo.MethodInitialize) || !env.hasID() {
		return ""
	}
	var p struct {
		ProtocolVersion any `json:"protocolVersion"`
	}
	err := json.Unmarshal(env.Params, &p)
	if _, isString := p.ProtocolVersion.(string); err != nil || !isString {
		return "invalid params: initialize needs params with a protocolVersion string, " +
			"the client's capabilities and its clientInfo"
	}
	return ""
}
