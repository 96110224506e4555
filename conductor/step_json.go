package conductor

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// stepFields is Step without its JSON methods.
type stepFields Step

// stepWire is a Step as JSON: its request and reply bodies as the JSON
// they are, so that `toolhub runs show --json` and the like are read as
// they were sent, and as base64 text when a body is not JSON (a stream,
// say), as encoding/json writes bytes.
type stepWire struct {
	stepFields
	Request json.RawMessage `json:"request,omitempty"`
	Reply   json.RawMessage `json:"reply,omitempty"`
}

// MarshalJSON writes the step with its bodies as JSON where they are.
func (s Step) MarshalJSON() ([]byte, error) {
	req, err := bodyJSON(s.Request)
	if err != nil {
		return nil, err
	}
	reply, err := bodyJSON(s.Reply)
	if err != nil {
		return nil, err
	}
	return json.Marshal(stepWire{stepFields: stepFields(s), Request: req, Reply: reply})
}

// UnmarshalJSON reads a step written by MarshalJSON, or by earlier builds,
// which wrote every body as base64 text (version 1 run log records).
func (s *Step) UnmarshalJSON(data []byte) error {
	var w stepWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*s = Step(w.stepFields)
	var err error
	if s.Request, err = bodyBytes(w.Request); err != nil {
		return fmt.Errorf("step request: %w", err)
	}
	if s.Reply, err = bodyBytes(w.Reply); err != nil {
		return fmt.Errorf("step reply: %w", err)
	}
	return nil
}

// bodyJSON is a body as JSON: itself when it is a JSON object or array,
// else a base64 string.
func bodyJSON(b []byte) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return nil, nil
	case len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') && json.Valid(trimmed):
		return trimmed, nil
	}
	return json.Marshal(b)
}

// bodyBytes reads what bodyJSON wrote.
func bodyBytes(raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '"' {
		var b []byte
		err := json.Unmarshal(raw, &b)
		return b, err
	}
	return []byte(raw), nil
}
