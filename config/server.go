package config

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/tailscale/hujson"
)

// serverKeys are the keys a server entry may have, in the order they are
// written back.
var serverKeys = []string{
	"type", "command", "args", "env", "cwd", "url", "headers",
	"oauth", "locality", "enabled", "disabledTools", "timeout", "costPerCall", "costPerSecond", "unprefixed",
	"clientRoots", "maxClientSessions", "protocol",
}

// keyHints name the toolhub key for keys other clients or older notes use.
var keyHints = map[string]string{
	"serverUrl": "url", "httpUrl": "url", "disabled": "enabled", "cost": "costPerCall",
}

// serverReader decodes one entry of "mcpServers".
type serverReader struct {
	d      decoder
	name   string
	nameAt int
	// lenient is set for other clients' files: their own keys are reported
	// through warn instead of being problems.
	lenient bool
	warn    func(string)

	s       Server
	typ     string // "type" as written
	keyAt   map[string]int
	valueAt map[string]int
}

// readServer decodes and validates the server named name, written at
// nameAt with value v. ok is false when it recorded a problem.
func readServer(d decoder, name string, nameAt int, v *hujson.Value, lenient bool, warn func(string)) (Server, bool) {
	r := &serverReader{
		d: d, name: name, nameAt: nameAt, lenient: lenient, warn: warn,
		keyAt: map[string]int{}, valueAt: map[string]int{},
	}
	r.s.at = map[string]position{"": d.pos(nameAt)}
	before := len(d.problems)
	r.validateName()
	named := len(d.problems)
	members, ok := d.object(v, r.what(""))
	if !ok {
		return r.s, false
	}
	for _, m := range members {
		r.field(m)
	}
	if len(d.problems) > named {
		// A value of the wrong type would only cause confusing follow-ups.
		return r.s, false
	}
	r.validate()
	return r.s, len(d.problems) == before
}

// what describes a key of this server in messages.
func (r *serverReader) what(key string) string {
	if key == "" {
		return fmt.Sprintf("server %q", r.name)
	}
	return fmt.Sprintf("server %q: %s", r.name, key)
}

// field decodes one member of the server object.
func (r *serverReader) field(m member) {
	r.keyAt[m.key], r.valueAt[m.key] = m.keyAt, m.valueAt
	d, s, what := r.d, &r.s, r.what(m.key)
	switch m.key {
	case "type":
		r.typ, _ = d.str(m.value, what)
	case "command":
		s.Command, _ = d.str(m.value, what)
	case "args":
		s.Args, _ = d.strList(m.value, what)
	case "env":
		s.Env = r.strMap(m, "env")
	case "cwd":
		s.Cwd, _ = d.str(m.value, what)
	case "url":
		s.URL, _ = d.str(m.value, what)
	case "headers":
		s.Headers = r.strMap(m, "headers")
	case "oauth":
		s.OAuth = r.oauth(m)
	case "locality":
		s.Locality, _ = d.str(m.value, what)
	case "enabled":
		enabled := d.boolean(m.value, what)
		s.Disabled = !enabled
	case "disabledTools":
		s.DisabledTools, _ = d.strList(m.value, what)
	case "timeout":
		s.Timeout = r.timeout(m.value, what)
	case "costPerCall":
		s.CostPerCall, _ = d.number(m.value, what)
	case "costPerSecond":
		s.CostPerSecond, _ = d.number(m.value, what)
	case "unprefixed":
		s.Unprefixed = d.boolean(m.value, what)
	case "clientRoots":
		s.ClientRoots = d.boolean(m.value, what)
		lit, _ := m.value.Value.(hujson.Literal)
		s.NoClientRoots = lit.Kind() == 'f'
	case "maxClientSessions":
		s.MaxClientSessions = r.sessionCap(m.value, what)
	case "protocol":
		s.Protocol, _ = d.str(m.value, what)
	default:
		r.otherKey(m)
	}
}

// strMap decodes env or headers, remembering where each value was written.
func (r *serverReader) strMap(m member, key string) map[string]string {
	values, offsets := r.d.strMap(m.value, r.what(key))
	for k, off := range offsets {
		r.s.at[key+"/"+k] = r.d.pos(off)
	}
	return values
}

// otherKey handles a key toolhub does not define: a problem in toolhub's
// own file, a warning (or a known alias) in another client's file.
func (r *serverReader) otherKey(m member) {
	if !r.lenient {
		hint := didYouMean(m.key, serverKeys)
		if alias, ok := keyHints[m.key]; ok {
			hint = fmt.Sprintf(" (did you mean %q?)", alias)
		}
		r.d.at(m.keyAt, "%s: unknown key %q%s", r.what(""), m.key, hint)
		return
	}
	switch m.key {
	case "serverUrl", "httpUrl": // Windsurf, Gemini CLI
		r.s.URL, _ = r.d.str(m.value, r.what(m.key))
		r.keyAt["url"], r.valueAt["url"] = m.keyAt, m.valueAt
		if m.key == "httpUrl" && r.typ == "" {
			r.typ = TypeHTTP
		}
	case "disabled": // Cline, Roo Code
		disabled := r.d.boolean(m.value, r.what(m.key))
		r.s.Disabled = disabled
	default:
		r.warn(fmt.Sprintf("%s: key %q is not used by toolhub and was left out", r.what(""), m.key))
	}
}

// timeout decodes a Go duration string ("30s") or a number of seconds.
func (r *serverReader) timeout(v *hujson.Value, what string) time.Duration {
	const want = `want a duration like "30s" or "2m", or a number of seconds`
	if lit, ok := v.Value.(hujson.Literal); ok && lit.Kind() == '"' {
		d, err := time.ParseDuration(lit.String())
		if err != nil || d < 0 {
			r.d.at(v.StartOffset, "%s: %s, got %s", what, want, string(lit))
			return 0
		}
		return d
	}
	secs, ok := r.d.number(v, what)
	if !ok {
		return 0
	}
	if secs < 0 || secs*float64(time.Second) > math.MaxInt64 {
		r.d.at(v.StartOffset, "%s: %s >= 0, got %v", what, want, secs)
		return 0
	}
	return time.Duration(secs * float64(time.Second))
}

// maxSessionCap bounds "maxClientSessions": each session of a stdio
// server is a process of its own.
const maxSessionCap = 256

// sessionCap decodes "maxClientSessions": a whole number from 1 to
// maxSessionCap.
func (r *serverReader) sessionCap(v *hujson.Value, what string) int {
	n, ok := r.d.count(v, what)
	if !ok {
		return 0
	}
	if n < 1 || n > maxSessionCap {
		r.d.at(v.StartOffset, "%s: want a whole number from 1 to %d, got %d", what, maxSessionCap, n)
		return 0
	}
	return int(n)
}

// normalizeType maps the spellings of "type" to stdio, sse or http.
func normalizeType(t string) (string, bool) {
	switch strings.ToLower(t) {
	case "stdio":
		return TypeStdio, true
	case "sse":
		return TypeSSE, true
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		return TypeHTTP, true
	}
	return "", false
}

// defaultType is the type of a server that does not say.
func defaultType(s Server) string {
	switch {
	case s.Command != "":
		return TypeStdio
	case strings.HasSuffix(strings.TrimRight(urlPath(s.URL), "/"), "/sse"):
		return TypeSSE
	}
	return TypeHTTP
}
