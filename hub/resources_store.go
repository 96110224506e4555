package hub

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/yosida95/uritemplate/v3"
)

// extrasStore holds every ready server's resources, templates and prompts
// and names the prompts across servers.
type extrasStore struct {
	mu        sync.Mutex
	servers   map[string]storedExtras
	prompts   []Prompt
	byName    map[string]Prompt
	watchers  map[int]func()
	nextWatch int
}

// storedExtras is one server's parsed lists.
type storedExtras struct {
	unprefixed bool
	resources  []Resource
	templates  []storedTemplate
	prompts    []Prompt // Name not yet assigned
}

type storedTemplate struct {
	ResourceTemplate
	parsed *uritemplate.Template // nil when the template does not parse
}

func newExtrasStore() *extrasStore {
	return &extrasStore{servers: map[string]storedExtras{}, byName: map[string]Prompt{}, watchers: map[int]func(){}}
}

// set replaces one server's lists and tells the watchers.
func (s *extrasStore) set(server string, unprefixed bool, extras serverExtras) {
	parsed := parseExtras(server, unprefixed, extras)
	s.mu.Lock()
	s.servers[server] = parsed
	s.renamePromptsLocked()
	fns := s.watchersLocked()
	s.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// remove forgets a server; watchers hear of it only if it had anything.
func (s *extrasStore) remove(server string) {
	s.mu.Lock()
	old, ok := s.servers[server]
	delete(s.servers, server)
	s.renamePromptsLocked()
	fns := s.watchersLocked()
	s.mu.Unlock()
	if !ok || len(old.resources)+len(old.templates)+len(old.prompts) == 0 {
		return
	}
	for _, fn := range fns {
		fn()
	}
}

func (s *extrasStore) watch(fn func()) (stop func()) {
	s.mu.Lock()
	id := s.nextWatch
	s.nextWatch++
	s.watchers[id] = fn
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.watchers, id)
		s.mu.Unlock()
	}
}

func (s *extrasStore) watchersLocked() []func() {
	fns := make([]func(), 0, len(s.watchers))
	for _, fn := range s.watchers {
		fns = append(fns, fn)
	}
	return fns
}

// parseExtras keeps the entries that carry their identifying field; others
// cannot be offered or routed.
func parseExtras(server string, unprefixed bool, extras serverExtras) storedExtras {
	out := storedExtras{unprefixed: unprefixed}
	for _, raw := range extras.resources {
		var r struct{ URI, Name string }
		if json.Unmarshal(raw, &r) == nil && r.URI != "" {
			out.resources = append(out.resources, Resource{Server: server, URI: r.URI, Name: r.Name, Raw: raw})
		}
	}
	for _, raw := range extras.templates {
		var t struct {
			URITemplate string `json:"uriTemplate"`
			Name        string `json:"name"`
		}
		if json.Unmarshal(raw, &t) != nil || t.URITemplate == "" {
			continue
		}
		parsed, _ := uritemplate.New(t.URITemplate)
		out.templates = append(out.templates, storedTemplate{
			ResourceTemplate: ResourceTemplate{Server: server, URITemplate: t.URITemplate, Name: t.Name, Raw: raw},
			parsed:           parsed,
		})
	}
	for _, raw := range extras.prompts {
		var p struct{ Name string }
		if json.Unmarshal(raw, &p) == nil && p.Name != "" {
			out.prompts = append(out.prompts, Prompt{Server: server, Original: p.Name, Raw: raw})
		}
	}
	return out
}

// renamePromptsLocked names every prompt the way the catalog names tools.
func (s *extrasStore) renamePromptsLocked() {
	var all []namedTool
	unprefixed := map[string]bool{}
	raw := map[toolKey]Prompt{}
	plains := plainNameCounts{}
	for server, e := range s.servers {
		unprefixed[server] = e.unprefixed
		for _, p := range e.prompts {
			key := toolKey{server: server, tool: p.Original}
			if _, dup := raw[key]; dup {
				continue
			}
			raw[key] = p
			t := namedTool{key: key, full: fullName(key, e.unprefixed), plain: plainName(key, e.unprefixed)}
			all = append(all, t)
			plains.add(t)
		}
	}
	slices.SortFunc(all, func(a, b namedTool) int { return compareToolKeys(a.key, b.key) })
	n := newNamer(plains)
	s.prompts = make([]Prompt, 0, len(all))
	s.byName = make(map[string]Prompt, len(all))
	for _, t := range all {
		p := raw[t.key]
		p.Name = n.name(t)
		s.prompts = append(s.prompts, p)
		s.byName[p.Name] = p
	}
}

// sortedServers is the store's server names in order.
func (s *extrasStore) sortedServersLocked() []string {
	names := make([]string, 0, len(s.servers))
	for name := range s.servers {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func (s *extrasStore) resources() []Resource {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Resource
	for _, name := range s.sortedServersLocked() {
		out = append(out, s.servers[name].resources...)
	}
	return out
}

func (s *extrasStore) templates() []ResourceTemplate {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []ResourceTemplate
	for _, name := range s.sortedServersLocked() {
		for _, t := range s.servers[name].templates {
			out = append(out, t.ResourceTemplate)
		}
	}
	return out
}

func (s *extrasStore) allPrompts() []Prompt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.prompts)
}

func (s *extrasStore) prompt(name string) (Prompt, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.byName[name]
	return p, ok
}

// resourceOwner finds the server a URI belongs to: the one listing it, else
// the only one with a template matching it, else the only one offering
// resources at all. It reports the candidates when that is ambiguous.
func (s *extrasStore) resourceOwner(uri string) (string, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	servers := s.sortedServersLocked()
	for _, name := range servers {
		for _, r := range s.servers[name].resources {
			if r.URI == uri {
				return name, nil
			}
		}
	}
	if match := s.serversLocked(servers, func(e storedExtras) bool { return matchesAnyTemplate(e.templates, uri) }); len(match) == 1 {
		return match[0], nil
	}
	offering := s.serversLocked(servers, func(e storedExtras) bool { return len(e.resources)+len(e.templates) > 0 })
	if len(offering) == 1 {
		return offering[0], nil
	}
	return "", offering
}

// templateOwner is the only server listing uriTemplate itself as one of its
// templates, or "".
func (s *extrasStore) templateOwner(uriTemplate string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	owner := ""
	for _, name := range s.sortedServersLocked() {
		for _, t := range s.servers[name].templates {
			if t.URITemplate != uriTemplate {
				continue
			}
			if owner != "" && owner != name {
				return ""
			}
			owner = name
		}
	}
	return owner
}

func (s *extrasStore) serversLocked(names []string, keep func(storedExtras) bool) []string {
	var out []string
	for _, name := range names {
		if keep(s.servers[name]) {
			out = append(out, name)
		}
	}
	return out
}

func matchesAnyTemplate(templates []storedTemplate, uri string) bool {
	for _, t := range templates {
		if t.parsed != nil && t.parsed.Regexp().MatchString(uri) {
			return true
		}
	}
	return false
}

// ownerList is the candidates for an error message.
func ownerList(servers []string) string {
	if len(servers) == 0 {
		return "no server offers resources"
	}
	return "servers " + strings.Join(servers, ", ") + " offer resources"
}
