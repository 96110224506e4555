package config

import (
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/toolhub/toolhub/hub"
)

// Specs turns the enabled servers into the hub's server specs, sorted by
// name, with ${VAR} references in env and headers values expanded through
// lookupEnv (os.LookupEnv in production) and locality defaulted. An unset
// variable without a default, or a malformed reference, is a problem naming
// the server, key and variable; values are never printed.
func (f *File) Specs(lookupEnv func(string) (string, bool)) ([]hub.ServerSpec, error) {
	l := &problemList{file: f.Path}
	for _, name := range slices.Sorted(maps.Keys(f.invalid)) {
		l.problems = append(l.problems, f.invalid[name].problems...)
	}
	specs := make([]hub.ServerSpec, 0, len(f.MCPServers))
	for _, name := range slices.Sorted(maps.Keys(f.MCPServers)) {
		if s := f.MCPServers[name]; !s.Disabled {
			specs = append(specs, specOf(l, name, s, lookupEnv))
		}
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	return specs, nil
}

// ServeSpecs is Specs for a running hub, where a bad entry must not take
// the rest down: a server whose values cannot be expanded is kept with
// Invalid set to its problems (file:line:col: what is wrong, never a
// value), and the hub lists it as invalid without starting it.
func (f *File) ServeSpecs(lookupEnv func(string) (string, bool)) []hub.ServerSpec {
	specs := make([]hub.ServerSpec, 0, len(f.MCPServers))
	for _, name := range slices.Sorted(maps.Keys(f.MCPServers)) {
		s := f.MCPServers[name]
		if s.Disabled {
			continue
		}
		l := &problemList{file: f.Path}
		spec := specOf(l, name, s, lookupEnv)
		if err := l.err(); err != nil {
			spec.Invalid = strings.ReplaceAll(err.Error(), "\n", "; ")
			spec.Env, spec.Headers = nil, nil
		}
		specs = append(specs, spec)
	}
	for _, name := range slices.Sorted(maps.Keys(f.invalid)) {
		bad := f.invalid[name]
		if bad.server.Disabled {
			continue
		}
		pe := &ProblemsError{Problems: bad.problems}
		specs = append(specs, hub.ServerSpec{
			Name:      name,
			Transport: transportOf(bad.server),
			Locality:  hub.Locality(DefaultLocality(bad.server)),
			Invalid:   strings.ReplaceAll(pe.Error(), "\n", "; "),
		})
	}
	slices.SortFunc(specs, func(a, b hub.ServerSpec) int { return strings.Compare(a.Name, b.Name) })
	return specs
}

// specOf builds one server's spec, recording its expansion problems in l.
func specOf(l *problemList, name string, s Server, lookupEnv func(string) (string, bool)) hub.ServerSpec {
	return hub.ServerSpec{
		Name:          name,
		Transport:     transportOf(s),
		Command:       s.Command,
		Args:          slices.Clone(s.Args),
		Env:           expandValues(l, name, "env", s, s.Env, lookupEnv),
		Cwd:           s.Cwd,
		URL:           s.URL,
		Headers:       expandValues(l, name, "headers", s, s.Headers, lookupEnv),
		Locality:      hub.Locality(DefaultLocality(s)),
		DisabledTools: slices.Clone(s.DisabledTools),
		Timeout:       s.Timeout,
		CostPerCall:   s.CostPerCall,
		Unprefixed:    s.Unprefixed,
	}
}

// expandValues expands the ${VAR} references of env or headers values.
func expandValues(l *problemList, server, key string, s Server, values map[string]string, lookup func(string) (string, bool)) map[string]string {
	if values == nil {
		return nil
	}
	out := make(map[string]string, len(values))
	for _, k := range slices.Sorted(maps.Keys(values)) {
		v, unset, err := expandEnv(values[k], lookup)
		at := s.at[key+"/"+k]
		if err != nil {
			l.add(at, "server %q: %s.%s: %v", server, key, k, err)
			continue
		}
		for _, name := range unset {
			l.add(at, "server %q: %s.%s: environment variable %s is not set (set it, or write ${%s:-default})", server, key, k, name, name)
		}
		out[k] = v
	}
	return out
}

// transportOf maps a server's type to the hub's transport.
func transportOf(s Server) hub.Transport {
	t := s.Type
	if t == "" {
		t = defaultType(s)
	}
	switch t {
	case TypeSSE:
		return hub.TransportSSE
	case TypeHTTP:
		return hub.TransportHTTP
	}
	return hub.TransportStdio
}

// DefaultLocality returns the server's locality: the configured one, else
// local for stdio servers and URLs on a loopback host, remote otherwise.
func DefaultLocality(s Server) string {
	if s.Locality != "" {
		return s.Locality
	}
	if s.Command != "" || s.URL == "" {
		return LocalityLocal
	}
	if isLoopbackURL(s.URL) {
		return LocalityLocal
	}
	return LocalityRemote
}

// isLoopbackURL reports whether the URL's host is localhost, 127.0.0.0/8 or ::1.
func isLoopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ServerNames returns the names of all servers, enabled or not, sorted.
func (f *File) ServerNames() []string {
	return slices.Sorted(maps.Keys(f.MCPServers))
}

// String describes what a server runs or connects to, for listings. It
// never includes env or headers values.
func (s Server) String() string {
	if s.Command != "" {
		return strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
	}
	return fmt.Sprintf("%s %s", transportOrDefault(s), s.URL)
}

func transportOrDefault(s Server) string {
	if s.Type != "" {
		return s.Type
	}
	return defaultType(s)
}

// expandEnv replaces ${NAME} and ${NAME:-default} in s with values from
// lookup. The default is used when NAME is unset or empty, as in the shell.
// Substituted values are never expanded again. It returns the names of
// variables that are unset and have no default, and an error when a
// reference is malformed. Errors never contain a variable's value.
func expandEnv(s string, lookup func(string) (string, bool)) (string, []string, error) {
	if !strings.Contains(s, "${") {
		return s, nil, nil
	}
	var b strings.Builder
	var unset []string
	rest := s
	for {
		start := strings.Index(rest, "${")
		if start < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:start])
		end := strings.IndexByte(rest[start:], '}')
		if end < 0 {
			return "", nil, fmt.Errorf("unterminated %q (want ${NAME} or ${NAME:-default})", clip(rest[start:]))
		}
		ref := rest[start+2 : start+end]
		value, missing, err := resolveRef(ref, lookup)
		if err != nil {
			return "", nil, err
		}
		if missing && !slices.Contains(unset, ref) {
			unset = append(unset, ref)
		}
		b.WriteString(value)
		rest = rest[start+end+1:]
	}
	return b.String(), unset, nil
}

// resolveRef resolves the inside of one ${...}.
func resolveRef(ref string, lookup func(string) (string, bool)) (value string, missing bool, err error) {
	name, def, hasDefault := strings.Cut(ref, ":-")
	if !isEnvName(name) {
		return "", false, fmt.Errorf("%q is not a variable reference (want ${NAME} or ${NAME:-default})", clip("${"+ref+"}"))
	}
	v, ok := lookup(name)
	switch {
	case ok && v != "":
		return v, false, nil
	case hasDefault:
		return def, false, nil
	case ok:
		return "", false, nil
	}
	return "", true, nil
}

// isEnvName reports whether s is a portable environment variable name.
func isEnvName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// clip shortens text quoted in a message.
func clip(s string) string {
	const limit = 40
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "..."
}
