package policies

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

var (
	errMissingName = errors.New("missing tool name")
	errEmptyBlock  = errors.New("empty <tool_call> block")
	errNotObject   = errors.New("arguments are not a JSON object")
)

// parseBlock reads the JSON of one <tool_call> block:
// {"name": "search", "arguments": {"model": "search-2"}}. arguments may be an
// object or a JSON string holding one; a missing or null arguments is {}.
func parseBlock(body string) Candidate {
	raw := strings.TrimSpace(body)
	c := Candidate{Raw: raw}
	if raw == "" {
		c.Err = errEmptyBlock
		return c
	}
	var call struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal([]byte(raw), &call); err != nil {
		c.Name = guessName(raw)
		c.Err = fmt.Errorf("invalid JSON in <tool_call> block: %w", err)
		return c
	}
	if err := json.Unmarshal(call.Name, &c.Name); err != nil || c.Name == "" {
		c.Name = ""
		c.Err = errMissingName
		return c
	}
	args, err := parseArgumentsJSON(call.Arguments)
	if err != nil {
		c.Err = err
		return c
	}
	c.Arguments = args
	return c
}

// parseArguments reads the arguments string of a parsed tool call.
func parseArguments(text string) (json.RawMessage, error) {
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return json.RawMessage("{}"), nil
	}
	if !json.Valid([]byte(trimmed)) {
		var v any
		err := json.Unmarshal([]byte(trimmed), &v)
		return nil, fmt.Errorf("invalid JSON arguments: %w", err)
	}
	return parseArgumentsJSON(json.RawMessage(trimmed))
}

// parseArgumentsJSON accepts an object, a JSON string holding an object (as
// double-encoding servers send), or null/absent for no arguments.
func parseArgumentsJSON(raw json.RawMessage) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return json.RawMessage("{}"), nil
	}
	if trimmed[0] == '"' {
		var inner string
		if err := json.Unmarshal(trimmed, &inner); err != nil {
			return nil, fmt.Errorf("invalid JSON arguments: %w", err)
		}
		inner = strings.TrimSpace(inner)
		if !strings.HasPrefix(inner, "{") {
			return nil, errNotObject
		}
		return parseArguments(inner)
	}
	if trimmed[0] != '{' {
		return nil, errNotObject
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, trimmed); err != nil {
		return nil, fmt.Errorf("invalid JSON arguments: %w", err)
	}
	return compact.Bytes(), nil
}

var namePattern = regexp.MustCompile(`"name"\s*:\s*"([^"\\]{1,200})"`)

// guessName reads the tool name of a block whose JSON is broken, for the
// trace only: such a candidate is never run.
func guessName(raw string) string {
	if m := namePattern.FindStringSubmatch(raw); m != nil {
		return m[1]
	}
	return ""
}

// stringArgument reads one string argument of a valid candidate.
func stringArgument(args json.RawMessage, key string) (string, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(args, &fields); err != nil {
		return "", errNotObject
	}
	raw, ok := fields[key]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return "", fmt.Errorf("missing argument %q", key)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("argument %q is not a string", key)
	}
	return s, nil
}
