package config

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ServerSummary describes a server for listings and JSON output. It holds
// the names of env variables and headers but never their values, which
// may be secrets.
type ServerSummary struct {
	Name       string   `json:"name"`
	Type       string   `json:"type"`
	Locality   string   `json:"locality"`
	Enabled    bool     `json:"enabled"`
	Command    string   `json:"command,omitempty"`
	Args       []string `json:"args,omitempty"`
	URL        string   `json:"url,omitempty"`
	EnvKeys    []string `json:"envKeys,omitempty"`
	HeaderKeys []string `json:"headerKeys,omitempty"`
}

// Summarize describes the server called name.
func Summarize(name string, s Server) ServerSummary {
	return ServerSummary{
		Name: name, Type: transportOrDefault(s), Locality: DefaultLocality(s), Enabled: s.IsEnabled(),
		Command: s.Command, Args: s.Args, URL: s.URL,
		EnvKeys:    slices.Sorted(maps.Keys(s.Env)),
		HeaderKeys: slices.Sorted(maps.Keys(s.Headers)),
	}
}

// SummarizeAll describes servers sorted by name.
func SummarizeAll(servers map[string]Server) []ServerSummary {
	out := make([]ServerSummary, 0, len(servers))
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		out = append(out, Summarize(name, servers[name]))
	}
	return out
}

// NameList lists the servers' names, sorted and comma-separated, marking
// disabled ones: "a, b [disabled], c".
func NameList(servers map[string]Server) string {
	names := slices.Sorted(maps.Keys(servers))
	for i, name := range names {
		if servers[name].Disabled {
			names[i] += " [disabled]"
		}
	}
	return strings.Join(names, ", ")
}

// MarshalJSON writes a found file with server summaries (no env or header
// values) and its error as text.
func (f Found) MarshalJSON() ([]byte, error) {
	view := struct {
		Client   string          `json:"client"`
		Path     string          `json:"path"`
		Servers  []ServerSummary `json:"servers"`
		Warnings []string        `json:"warnings,omitempty"`
		Error    string          `json:"error,omitempty"`
	}{Client: f.Client, Path: f.Path, Servers: SummarizeAll(f.Servers), Warnings: f.Warnings}
	if f.Err != nil {
		view.Error = f.Err.Error()
	}
	return json.Marshal(view)
}

// SelectFound keeps the servers that selectors name, from the files that
// could be read. A selector is "client" (all of that client's servers) or
// "client:name"; no selectors keep everything. A selector that matches
// nothing is an error.
func SelectFound(found []Found, selectors []string) ([]Found, error) {
	matched := make([]bool, len(selectors))
	var out []Found
	for _, f := range found {
		if f.Err != nil {
			continue
		}
		kept := map[string]Server{}
		for name, s := range f.Servers {
			if selected(selectors, matched, f.Client, name) {
				kept[name] = s
			}
		}
		if len(kept) > 0 {
			f.Servers = kept
			f.Warnings = keepWarnings(f.Warnings, f.warnedAbout, func(server string) bool {
				return slices.ContainsFunc(selectors, func(sel string) bool { return selects(sel, f.Client, server) })
			}, len(selectors) == 0)
			f.warnedAbout = nil
			out = append(out, f)
		}
	}
	for i, sel := range selectors {
		if !matched[i] {
			return nil, fmt.Errorf(`%q matches no discovered server (want "client" or "client:name", as listed by discover)`, sel)
		}
	}
	return out, nil
}

// selected reports whether a server is selected, marking the selectors
// that match it.
func selected(selectors []string, matched []bool, client, name string) bool {
	if len(selectors) == 0 {
		return true
	}
	hit := false
	for i, sel := range selectors {
		if selects(sel, client, name) {
			matched[i], hit = true, true
		}
	}
	return hit
}

// selects reports whether one selector, "client" or "client:name", picks
// the server name of client.
func selects(sel, client, name string) bool {
	c, n, hasName := strings.Cut(sel, ":")
	return c == client && (!hasName || n == name)
}
