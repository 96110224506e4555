package mcp

import (
	"bytes"
	"encoding/json"
)

// envelopeProblem says what makes a POST body a message no JSON-RPC peer
// can answer, where mcp-go would take it for a notification and answer 202
// (the client then waits for an answer forever) or call valid JSON "not
// valid json"; id is the id to answer under (nil for none). A body that is
// not JSON at all, or a batch, is left to the checks that name those.
func envelopeProblem(body []byte) (id json.RawMessage, problem string) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] == '[' || !json.Valid(trimmed) {
		return nil, ""
	}
	if trimmed[0] != '{' {
		return nil, "a JSON-RPC message is a JSON object"
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(trimmed, &m) != nil {
		return nil, ""
	}
	rawID, hasID := m["id"]
	method, hasMethod := m["method"]
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if hasID && validID(rawID) {
		id = rawID
	}
	switch {
	case hasMethod && (len(method) == 0 || method[0] != '"'):
		return id, "the method of a JSON-RPC message is a string"
	case hasID && !hasMethod && !hasResult && !hasError:
		return id, "a message with an id needs a method (a request) or a result or an error (an answer)"
	case hasID && hasMethod && bytes.Equal(rawID, []byte("null")):
		return nil, "a request's id is a string or an integer, never null; a notification has no id at all"
	case hasID && !validID(rawID) && !bytes.Equal(rawID, []byte("null")):
		return nil, "a request's id is a string or an integer"
	}
	return nil, ""
}

// validID reports whether id is a JSON string or a number.
func validID(id json.RawMessage) bool {
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9'))
}
