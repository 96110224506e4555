package mcpwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// oversizeSample is how much of the start and of the end of an oversized
// message is kept to find out which request it answers.
const oversizeSample = 4 << 10

// MessageIdentity is what the start and end of a JSON-RPC message that is too
// large to read whole tell about it.
type MessageIdentity struct {
	ID        json.RawMessage // the "id" member, a JSON string or number; nil when not found
	HasMethod bool            // a request or notification, not a response
}

// IdentifyMessage looks for the top-level "id" and "method" members of a
// JSON-RPC message from its first bytes (head) and its last bytes (tail).
// Go servers write "id" before "result"; the TypeScript SDK writes it last.
func IdentifyMessage(head, tail []byte) MessageIdentity {
	id := scanHead(head)
	if id.ID != nil {
		return id
	}
	fromTail := scanTail(tail)
	fromTail.HasMethod = fromTail.HasMethod || id.HasMethod
	return fromTail
}

// scanHead walks the top-level members of the (truncated) object in head
// until the data runs out, noting "id" and "method".
func scanHead(head []byte) MessageIdentity {
	var found MessageIdentity
	dec := json.NewDecoder(bytes.NewReader(head))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return found
	}
	depth, key, expectKey := 1, "", true
	for depth > 0 {
		tok, err := dec.Token()
		if err != nil {
			return found
		}
		if delim, ok := tok.(json.Delim); ok {
			depth += delimDepth(delim)
			if depth == 1 {
				expectKey = true
			}
			continue
		}
		if depth != 1 {
			continue
		}
		if expectKey {
			key, _ = tok.(string)
			expectKey = false
			found.HasMethod = found.HasMethod || key == "method"
			continue
		}
		if key == "id" {
			found.ID = scalarID(tok)
		}
		expectKey = true
	}
	return found
}

func delimDepth(d json.Delim) int {
	if d == '{' || d == '[' {
		return 1
	}
	return -1
}

// scalarID re-encodes a decoded id token; only strings and numbers are ids.
func scalarID(tok json.Token) json.RawMessage {
	switch v := tok.(type) {
	case string:
		encoded, _ := json.Marshal(v)
		return encoded
	case json.Number:
		return json.RawMessage(v.String())
	}
	return nil
}

// scanTail finds the last top-level "id" member in tail: the text from it to
// the end, opened with "{", must itself be a complete JSON object (a nested
// "id" would leave unbalanced closing brackets).
func scanTail(tail []byte) MessageIdentity {
	const maxTries = 8
	end := len(tail)
	for range maxTries {
		i := bytes.LastIndex(tail[:end], []byte(`"id"`))
		if i < 0 {
			break
		}
		if found, ok := tailObject(tail[i:]); ok {
			return found
		}
		end = i
	}
	return MessageIdentity{}
}

func tailObject(rest []byte) (MessageIdentity, bool) {
	candidate := make([]byte, 0, len(rest)+1)
	candidate = append(candidate, '{')
	candidate = append(candidate, rest...)
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(candidate))
	if err := dec.Decode(&members); err != nil {
		return MessageIdentity{}, false
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return MessageIdentity{}, false
	}
	raw := bytes.TrimSpace(members["id"])
	if len(raw) == 0 || !(raw[0] == '"' || raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
		return MessageIdentity{}, false
	}
	_, hasMethod := members["method"]
	return MessageIdentity{ID: raw, HasMethod: hasMethod}, true
}
