package policies

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration is a time.Duration written in JSON as a Go duration string:
// "90s", "10m", "1h30m". 0 is written as "0s" and read from "", "0" or 0.
type Duration time.Duration

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads a duration string, or the number 0.
func (d *Duration) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "0" {
		*d = 0
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want a duration such as \"90s\" or \"10m\", got %s", b)
	}
	if s == "" || s == "0" {
		*d = 0
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want a duration such as \"90s\" or \"10m\", got %q", s)
	}
	*d = Duration(v)
	return nil
}

// String renders the duration as time.Duration does.
func (d Duration) String() string { return time.Duration(d).String() }

// ParsePreferences reads a preferences document. Keys left out keep their
// DefaultPreferences value. Syntax and type errors name file:line:col;
// unknown keys and invalid values come back as a *ValidationError with
// their JSON paths.
func ParsePreferences(file string, data []byte) (Preferences, error) {
	if err := unknownKeys(file, data); err != nil {
		return Preferences{}, err
	}
	p := DefaultPreferences()
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&p); err != nil {
		return Preferences{}, positionError(file, data, err)
	}
	if _, err := dec.Token(); err == nil {
		return Preferences{}, fmt.Errorf("%s: %s: more than one JSON value", file, lineCol(data, dec.InputOffset()))
	}
	if err := p.Validate(); err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			ve.File = file
		}
		return Preferences{}, err
	}
	return p, nil
}

// preferenceKeys are the keys of a preferences document.
var preferenceKeys = map[string]bool{"privacy": true, "cost_weight": true, "latency_weight": true,
	"tools": true, "models": true, "budget_usd": true, "deadline": true, "max_turns": true}

// unknownKeys reports top-level keys the document should not have (a
// misspelt key would otherwise be ignored silently). A document that is not
// an object is left to the decoder's own error.
func unknownKeys(file string, data []byte) error {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	var probs []Problem
	for _, k := range sortedKeys(top) {
		if !preferenceKeys[k] {
			probs = append(probs, Problem{Path: strconv.Quote(k), Message: "unknown key"})
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return &ValidationError{File: file, Problems: probs}
}

// positionError names where a decode error happened: the offending
// character of a syntax error, the end of a value of the wrong type.
func positionError(file string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%s:%s: %w", file, lineCol(data, syn.Offset-1), err)
	case errors.As(err, &typ):
		return fmt.Errorf("%s:%s: %s: want %s, got %s", file, lineCol(data, typ.Offset), typ.Field, typ.Type, typ.Value)
	}
	return fmt.Errorf("%s: %w", file, err)
}

// lineCol turns a byte offset into "line:col", both from 1.
func lineCol(data []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(data)))
	before := string(data[:offset])
	line := strings.Count(before, "\n") + 1
	col := len(before) - strings.LastIndex(before, "\n")
	return strconv.Itoa(line) + ":" + strconv.Itoa(col)
}

// EncodePreferences renders the document as the store writes it: indented
// JSON with a final newline.
func EncodePreferences(p Preferences) ([]byte, error) {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode preferences: %w", err)
	}
	return append(b, '\n'), nil
}
