package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// field is one key of a server as written to a config file.
type field struct {
	key   string
	value any
}

// serverFields lists the keys of s worth writing, in serverKeys order.
func serverFields(s Server) []field {
	var fields []field
	add := func(key string, value any, present bool) {
		if present {
			fields = append(fields, field{key, value})
		}
	}
	typ := ""
	if s.URL != "" || (s.Type != "" && s.Type != TypeStdio) {
		typ = transportOrDefault(s)
	}
	add("type", typ, typ != "")
	add("command", s.Command, s.Command != "")
	add("args", s.Args, len(s.Args) > 0)
	add("env", s.Env, len(s.Env) > 0)
	add("cwd", s.Cwd, s.Cwd != "")
	add("url", s.URL, s.URL != "")
	add("headers", s.Headers, len(s.Headers) > 0)
	add("oauth", oauthFields(s.OAuth), s.OAuth != nil)
	add("locality", s.Locality, s.Locality != "")
	add("enabled", false, s.Disabled)
	add("disabledTools", s.DisabledTools, len(s.DisabledTools) > 0)
	add("timeout", formatDuration(s.Timeout), s.Timeout != 0)
	add("costPerCall", s.CostPerCall, s.CostPerCall != 0)
	add("costPerSecond", s.CostPerSecond, s.CostPerSecond != 0)
	add("unprefixed", true, s.Unprefixed)
	add("clientRoots", true, s.ClientRoots)
	add("clientRoots", false, s.NoClientRoots)
	add("maxClientSessions", s.MaxClientSessions, s.MaxClientSessions != 0)
	add("protocol", s.Protocol, s.Protocol != "")
	return fields
}

// marshalServer writes s as a JSON object with one key per line, indented
// by prefix+unit (the closing brace at prefix), or on one line when inline.
// Values such as args and env stay on one line each.
func marshalServer(s Server, prefix, unit string, inline bool) ([]byte, error) {
	var parts []string
	for _, f := range serverFields(s) {
		value, err := oneLineJSON(f.value)
		if err != nil {
			return nil, fmt.Errorf("encoding server key %q: %w", f.key, err)
		}
		parts = append(parts, strconv.Quote(f.key)+": "+value)
	}
	if inline || len(parts) == 0 {
		return []byte("{" + strings.Join(parts, ", ") + "}"), nil
	}
	inner := prefix + unit
	return []byte("{\n" + inner + strings.Join(parts, ",\n"+inner) + "\n" + prefix + "}"), nil
}

// oneLineJSON encodes v on one line with a space after each colon and comma,
// leaving & < > unescaped.
func oneLineJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return spaceOut(bytes.TrimSpace(buf.Bytes())), nil
}

// spaceOut adds a space after every colon and comma of compact JSON that is
// not inside a string.
func spaceOut(compact []byte) string {
	var b strings.Builder
	inString, escaped := false, false
	for _, c := range compact {
		b.WriteByte(c)
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ':' || c == ','):
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// formatDuration writes whole seconds as "30s" and anything else in Go's
// duration syntax.
func formatDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}

// checkServer validates s as if it were written in a config file under
// name, returning the problems' messages.
func checkServer(name string, s Server) []string {
	body, err := marshalServer(s, "", "", true)
	if err != nil {
		return []string{err.Error()}
	}
	key, err := json.Marshal(name)
	if err != nil {
		return []string{err.Error()}
	}
	src := append([]byte(`{"mcpServers":{`+string(key)+`:`), body...)
	src = append(src, "}}"...)
	if _, err := Parse("", src); err != nil {
		var pe *ProblemsError
		if !errors.As(err, &pe) {
			return []string{err.Error()}
		}
		msgs := make([]string, len(pe.Problems))
		for i, p := range pe.Problems {
			msgs[i] = strings.TrimPrefix(p.Message, fmt.Sprintf("server %q: ", name))
		}
		return msgs
	}
	return nil
}
