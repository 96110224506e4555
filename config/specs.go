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
// the server, key and variable; values are never printed. Every
// ${keychain:NAME} is a problem: SpecsFrom reads secrets.
func (f *File) Specs(lookupEnv func(string) (string, bool)) ([]hub.ServerSpec, error) {
	return f.SpecsFrom(Lookup{Env: lookupEnv})
}

// SpecsFrom is Specs with ${keychain:NAME} references read from lk.Secrets;
// a secret that is not set is a problem naming the command that sets it.
func (f *File) SpecsFrom(lk Lookup) ([]hub.ServerSpec, error) {
	l := &problemList{file: f.Path}
	for _, name := range slices.Sorted(maps.Keys(f.invalid)) {
		l.problems = append(l.problems, f.invalid[name].problems...)
	}
	specs := make([]hub.ServerSpec, 0, len(f.MCPServers))
	for _, name := range slices.Sorted(maps.Keys(f.MCPServers)) {
		if s := f.MCPServers[name]; !s.Disabled {
			specs = append(specs, specOf(l, name, s, lk))
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
	return f.ServeSpecsFrom(Lookup{Env: lookupEnv})
}

// ServeSpecsFrom is ServeSpecs with ${keychain:NAME} references read from
// lk.Secrets: a server whose secret is not set is Invalid with a reason
// that names the command to set it, and the others start.
func (f *File) ServeSpecsFrom(lk Lookup) []hub.ServerSpec {
	specs := make([]hub.ServerSpec, 0, len(f.MCPServers))
	for _, name := range slices.Sorted(maps.Keys(f.MCPServers)) {
		s := f.MCPServers[name]
		if s.Disabled {
			continue
		}
		l := &problemList{file: f.Path}
		spec := specOf(l, name, s, lk)
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
		spec := hub.ServerSpec{Name: name, Invalid: strings.ReplaceAll(pe.Error(), "\n", "; ")}
		if statesTransport(bad.server) {
			spec.Transport = transportOf(bad.server)
			spec.Locality = hub.Locality(DefaultLocality(bad.server))
		}
		specs = append(specs, spec)
	}
	slices.SortFunc(specs, func(a, b hub.ServerSpec) int { return strings.Compare(a.Name, b.Name) })
	return specs
}

// specOf builds one server's spec, recording its expansion problems in l.
func specOf(l *problemList, name string, s Server, lk Lookup) hub.ServerSpec {
	return hub.ServerSpec{
		Name:          name,
		Transport:     transportOf(s),
		Command:       s.Command,
		Args:          slices.Clone(s.Args),
		Env:           expandValues(l, name, "env", s, s.Env, lk),
		Cwd:           s.Cwd,
		URL:           s.URL,
		Headers:       expandValues(l, name, "headers", s, s.Headers, lk),
		Locality:      hub.Locality(DefaultLocality(s)),
		DisabledTools: slices.Clone(s.DisabledTools),
		Timeout:       s.Timeout,
		CostPerCall:   s.CostPerCall,
		CostPerSecond: s.CostPerSecond,
		Unprefixed:    s.Unprefixed,
		ClientRoots:   s.ClientRoots,
		NoClientRoots: s.NoClientRoots,
		Protocol:      hub.Protocol(s.Protocol),

		MaxClientSessions: s.MaxClientSessions,
	}
}

// expandValues expands the references of env or headers values.
func expandValues(l *problemList, server, key string, s Server, values map[string]string, lk Lookup) map[string]string {
	if values == nil {
		return nil
	}
	out := make(map[string]string, len(values))
	for _, k := range slices.Sorted(maps.Keys(values)) {
		v, missing, err := expand(values[k], lk)
		at := s.at[key+"/"+k]
		if err != nil {
			l.add(at, "server %q: %s.%s: %v", server, key, k, err)
			continue
		}
		for _, m := range missing {
			l.add(at, "server %q: %s.%s: %s", server, key, k, m.message())
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

// statesTransport reports whether what could be read of a bad entry says
// how to reach its server: a known type, a command or a URL. Else its
// transport and locality are left empty rather than guessed.
func statesTransport(s Server) bool {
	switch s.Type {
	case "":
		return s.Command != "" || s.URL != ""
	case TypeStdio, TypeSSE, TypeHTTP:
		return true
	}
	return false
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
