package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
)

// envelopeProblem says what makes a POST body a message no JSON-RPC peer
// can answer, where mcp-go would take it for a notification and answer 202
// (the client then waits for an answer forever) or call valid JSON "not
// valid json"; id is the id to answer under (nil for none). A body that is
// not JSON at all, or a batch, is left to the checks that name those.
func envelopeProblem(body []byte) (id json.RawMessage, problem string) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] == '[' {
		return nil, ""
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(trimmed, &m); err != nil {
		if _, notObject := errors.AsType[*json.UnmarshalTypeError](err); notObject {
			return nil, "a JSON-RPC message is a JSON object"
		}
		return nil, "" // not JSON: the parser's own answer says so
	}
	null := bytes.Equal(m.ID, []byte("null"))
	hasID := len(m.ID) > 0
	if hasID && validID(m.ID) {
		id = m.ID
	}
	switch {
	case len(m.Method) > 0 && m.Method[0] != '"':
		return id, "the method of a JSON-RPC message is a string"
	case hasID && len(m.Method) == 0 && len(m.Result) == 0 && len(m.Error) == 0:
		return id, "a message with an id needs a method (a request) or a result or an error (an answer)"
	case null && len(m.Method) > 0:
		return nil, "a request's id is a string or an integer, never null; a notification has no id at all"
	case hasID && !null && !validID(m.ID):
		return nil, "a request's id is a string or an integer"
	}
	return nil, ""
}

// validID reports whether id is a JSON string or a number.
func validID(id json.RawMessage) bool {
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9'))
}
