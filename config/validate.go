package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// validate checks a decoded server as a whole and sets its Type.
func (r *serverReader) validate() {
	s := &r.s
	switch {
	case s.Command != "" && s.URL != "":
		r.d.at(r.nameAt, `%s: has both "command" and "url": a server is either a program to start (command) or an address to connect to (url)`, r.what(""))
		return
	case s.Command == "" && s.URL == "":
		r.d.at(r.nameAt, `%s: needs "command" (a program to start) or "url" (an address to connect to)`, r.what(""))
		return
	}
	if !r.validateType() {
		return
	}
	if s.Type == TypeStdio {
		r.onlyFor([]string{"headers"}, "sse and http")
		r.onlyFor([]string{"oauth"}, "http")
	} else {
		if s.Type == TypeSSE {
			r.onlyFor([]string{"oauth"}, "http")
		}
		r.validateOAuth()
		r.validateURL()
		r.onlyFor([]string{"args", "env", "cwd"}, "stdio")
	}
	r.validateToolhubKeys()
}

// validateName checks the server's name: it becomes the prefix of its tool
// names (server__tool), so it must be plain and must not contain "__".
func (r *serverReader) validateName() {
	if msg := nameProblem(r.name); msg != "" {
		r.d.at(r.nameAt, "%s", msg)
	}
}

// nameProblem describes what is wrong with a server name, or returns "".
func nameProblem(name string) string {
	switch {
	case name == "":
		return "server name is empty"
	case strings.ContainsFunc(name, func(c rune) bool { return !strings.ContainsRune(nameChars, c) }):
		return fmt.Sprintf(`server name %q: use only letters, digits, "-" and "_"`, name)
	case strings.Contains(name, "__"):
		return fmt.Sprintf(`server name %q must not contain "__" (it separates server and tool in tool names)`, name)
	}
	return ""
}

const nameChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

// validateType checks "type" against command/url and fills in the default.
func (r *serverReader) validateType() bool {
	s := &r.s
	if r.typ == "" {
		s.Type = defaultType(*s)
		return true
	}
	t, ok := normalizeType(r.typ)
	if !ok {
		r.d.at(r.valueAt["type"], `%s: unknown type %q (want "stdio", "sse" or "http")`, r.what(""), r.typ)
		return false
	}
	s.Type = t
	switch {
	case t == TypeStdio && s.URL != "":
		r.d.at(r.valueAt["type"], `%s: type "stdio" needs "command", not "url"`, r.what(""))
		return false
	case t != TypeStdio && s.Command != "":
		r.d.at(r.valueAt["type"], `%s: type %q needs "url", not "command"`, r.what(""), t)
		return false
	}
	return true
}

// validateURL requires an absolute http or https URL.
func (r *serverReader) validateURL() {
	u, err := url.Parse(r.s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		hint := ""
		if strings.Contains(r.s.URL, "${") {
			hint = " (${NAME} is expanded only in env and headers)"
		}
		r.d.at(r.valueAt["url"], "%s: want an http:// or https:// URL, got %q%s", r.what("url"), clip(r.s.URL), hint)
	}
}

// onlyFor reports keys that do not apply to the server's transport.
func (r *serverReader) onlyFor(keys []string, transports string) {
	for _, k := range keys {
		if at, ok := r.keyAt[k]; ok {
			r.d.at(at, "%s: %q applies only to %s servers", r.what(""), k, transports)
		}
	}
}

// validateToolhubKeys checks locality, cost, disabled tools and env names.
func (r *serverReader) validateToolhubKeys() {
	s := &r.s
	if s.Locality != "" && s.Locality != LocalityLocal && s.Locality != LocalityRemote {
		r.d.at(r.valueAt["locality"], `%s: want "local" or "remote", got %q`, r.what("locality"), clip(s.Locality))
	}
	if s.Protocol != "" && s.Protocol != "auto" && s.Protocol != protocolLegacy {
		r.d.at(r.valueAt["protocol"], `%s: want "auto" or %q, got %q`, r.what("protocol"), protocolLegacy, clip(s.Protocol))
	}
	if s.CostPerCall < 0 {
		r.d.at(r.valueAt["costPerCall"], "%s: want a cost in USD >= 0, got %v", r.what("costPerCall"), s.CostPerCall)
	}
	if s.CostPerSecond < 0 {
		r.d.at(r.valueAt["costPerSecond"], "%s: want a cost in USD per second >= 0, got %v", r.what("costPerSecond"), s.CostPerSecond)
	}
	if slices.Contains(s.DisabledTools, "") {
		r.d.at(r.valueAt["disabledTools"], "%s: tool names must not be empty", r.what("disabledTools"))
	}
	for k := range s.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			r.d.add(s.at["env/"+k], `%s: variable name %q must not be empty or contain "="`, r.what("env"), k)
		}
	}
}

// urlPath returns the path of a URL, or "" when it does not parse.
func urlPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Path
}

// protocolLegacy is the "protocol" value that keeps a server on the
// initialize handshake (hub.ProtocolLegacy).
const protocolLegacy = "2025-11-25"
