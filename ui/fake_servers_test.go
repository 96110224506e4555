package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The fake's reading of a snippet: standard JSON in the four shapes the
// real backend accepts, a syntax error placed by line and column.

func (f *fakeBackend) CheckServersJSON(_ context.Context, snippet, name string) (SnippetCheck, error) {
	f.note()
	return fakeCheck(snippet, name), nil
}

func fakeCheck(snippet, name string) SnippetCheck {
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(snippet), &top); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			line, col := lineCol(snippet, int(syn.Offset))
			return SnippetCheck{Problem: fmt.Sprintf("line %d, column %d: %s", line, col, syn.Error())}
		}
		return SnippetCheck{Problem: "line 1, column 1: want an object"}
	}
	if _, single := top["command"]; single {
		if name == "" {
			return SnippetCheck{Names: []string{"server"}, NeedsName: true}
		}
		return SnippetCheck{Names: []string{name}}
	}
	list := top
	for _, key := range []string{"mcpServers", "servers"} {
		if raw, ok := top[key]; ok {
			list = nil
			_ = json.Unmarshal(raw, &list)
		}
	}
	var names []string
	for n := range list {
		names = append(names, n)
	}
	slices.Sort(names)
	if len(names) == 0 {
		return SnippetCheck{Problem: "line 1, column 1: no servers in it"}
	}
	return SnippetCheck{Names: names}
}

func lineCol(s string, off int) (int, int) {
	before := s[:min(off, len(s))]
	line := strings.Count(before, "\n") + 1
	return line, len(before) - strings.LastIndex(before, "\n")
}

func (f *fakeBackend) AddServersJSON(_ context.Context, snippet, name string) (AddResult, error) {
	f.note()
	f.mu.Lock()
	refuse := f.refuse
	f.mu.Unlock()
	if refuse != nil {
		return AddResult{}, refuse
	}
	c := fakeCheck(snippet, name)
	if c.Problem != "" {
		return AddResult{}, &PlainError{Summary: "The JSON has a mistake: " + c.Problem + ".", Fix: "Correct it and try again.",
			Details: "/tmp/snippet/mcp.json: " + c.Problem}
	}
	return f.add(c.Names), nil
}

// add lists names as starting servers, skipping those already there.
func (f *fakeBackend) add(names []string) AddResult {
	f.mu.Lock()
	defer f.mu.Unlock()
	var res AddResult
	for _, n := range names {
		if slices.ContainsFunc(f.servers, func(s ServerInfo) bool { return s.Name == n }) {
			res.Skipped = append(res.Skipped, n+" is already one of your servers.")
			continue
		}
		f.servers = append(f.servers, ServerInfo{Name: n, Kind: KindServer, Health: HealthBusy, State: "starting", Enabled: true})
		f.added = append(f.added, n)
		res.Added = append(res.Added, n)
	}
	return res
}

func (f *fakeBackend) ClientConfigs(context.Context) ([]ClientConfig, error) {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.clients), nil
}

func (f *fakeBackend) ImportServers(_ context.Context, path string, names []string) (AddResult, error) {
	f.note()
	for _, c := range f.clients {
		if c.Path == path {
			if names == nil {
				names = c.Servers
			}
			return f.add(names), nil
		}
	}
	return AddResult{}, &PlainError{Summary: "That file holds no servers toolhub can read.", Details: path}
}

func (f *fakeBackend) ServerJSON(_ context.Context, name string) (string, error) {
	f.note()
	return fmt.Sprintf("{\n  %q: {\n    \"command\": \"run-%s\"\n  }\n}\n", name, name), nil
}

func (f *fakeBackend) ReplaceServerJSON(_ context.Context, name, text string) error {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse != nil {
		return f.refuse
	}
	f.replaced[name] = text
	return nil
}

func (f *fakeBackend) RemoveServer(_ context.Context, name string) error {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse != nil {
		return f.refuse
	}
	f.removed = append(f.removed, name)
	f.servers = slices.DeleteFunc(f.servers, func(s ServerInfo) bool { return s.Name == name })
	return nil
}
