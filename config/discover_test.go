package config

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixture returns the content of a client file from testdata/clients.
func fixture(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "clients", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestDiscover(t *testing.T) {
	claude := "claude/claude_desktop_config.json"
	vscode := "Code/User/mcp.json"
	tests := []struct {
		name  string
		goos  string
		env   map[string]string // values are relative to the fake home
		files map[string]string // path relative to the fake root -> fixture
		want  []string          // client rel-path servers, relative to the fake root
	}{
		{
			name: "linux",
			goos: "linux",
			files: map[string]string{
				"home/.config/Claude/claude_desktop_config.json":                     claude,
				"home/.config/Code/User/mcp.json":                                    vscode,
				"home/.cursor/mcp.json":                                              ".cursor/mcp.json",
				"home/.claude.json":                                                  "home/.claude.json",
				"home/.codeium/windsurf/mcp_config.json":                             ".codeium/windsurf/mcp_config.json",
				"project/.vscode/mcp.json":                                           "Code/User/settings.json",
				"project/.mcp.json":                                                  "project/.mcp.json",
				"project/.cursor/mcp.json":                                           "broken/syntax.json",
				"home/Library/Application Support/Claude/claude_desktop_config.json": claude, // not a Linux place
			},
			want: []string{
				"claude-desktop home/.config/Claude/claude_desktop_config.json filesystem,github-com-acme-tracker",
				"cursor home/.cursor/mcp.json context7,linear,local-db",
				"vscode home/.config/Code/User/mcp.json github,legacy-events,memory",
				"claude-code home/.claude.json memory,postgres,sentry",
				"windsurf home/.codeium/windsurf/mcp_config.json brave-search,figma",
				"cursor project/.cursor/mcp.json error",
				"vscode project/.vscode/mcp.json time",
				"claude-code project/.mcp.json ",
			},
		},
		{
			name:  "linux with XDG_CONFIG_HOME",
			goos:  "linux",
			env:   map[string]string{"XDG_CONFIG_HOME": "xdg"},
			files: map[string]string{"xdg/Claude/claude_desktop_config.json": claude, "home/.config/Code/User/mcp.json": vscode},
			want:  []string{"claude-desktop xdg/Claude/claude_desktop_config.json filesystem,github-com-acme-tracker"},
		},
		{
			name: "darwin",
			goos: "darwin",
			files: map[string]string{
				"home/Library/Application Support/Claude/claude_desktop_config.json": claude,
				"home/Library/Application Support/Code/User/mcp.json":                vscode,
				"home/.config/Claude/claude_desktop_config.json":                     claude, // not a macOS place
			},
			want: []string{
				"claude-desktop home/Library/Application Support/Claude/claude_desktop_config.json filesystem,github-com-acme-tracker",
				"vscode home/Library/Application Support/Code/User/mcp.json github,legacy-events,memory",
			},
		},
		{
			name: "windows",
			goos: "windows",
			env:  map[string]string{"APPDATA": "home/AppData/Roaming"},
			files: map[string]string{
				"home/AppData/Roaming/Claude/claude_desktop_config.json": claude,
				"home/AppData/Roaming/Code/User/mcp.json":                vscode,
				"home/.cursor/mcp.json":                                  ".cursor/mcp.json",
			},
			want: []string{
				"claude-desktop home/AppData/Roaming/Claude/claude_desktop_config.json filesystem,github-com-acme-tracker",
				"cursor home/.cursor/mcp.json context7,linear,local-db",
				"vscode home/AppData/Roaming/Code/User/mcp.json github,legacy-events,memory",
			},
		},
		{
			name:  "nothing installed",
			goos:  "linux",
			files: map[string]string{"home/.cursor/other.json": ".cursor/mcp.json"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, fix := range tt.files {
				writeFile(t, filepath.Join(root, rel), fixture(t, fix))
			}
			env := DiscoverEnv{
				GOOS: tt.goos, Home: filepath.Join(root, "home"), Cwd: filepath.Join(root, "project"),
				Getenv: func(k string) string {
					if v, ok := tt.env[k]; ok {
						return filepath.Join(root, v)
					}
					return ""
				},
			}
			got := summarizeFound(root, Discover(env))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestDiscoverProjectIsHome(t *testing.T) {
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".cursor", "mcp.json"), fixture(t, ".cursor/mcp.json"))
	found := Discover(DiscoverEnv{GOOS: "linux", Home: home, Cwd: home, Getenv: func(string) string { return "" }})
	if len(found) != 1 {
		t.Errorf("found %d files, want the shared one once", len(found))
	}
}

// summarizeFound prints "client path servers" per file, paths relative to root.
func summarizeFound(root string, found []Found) []string {
	var out []string
	for _, f := range found {
		rel, _ := filepath.Rel(root, f.Path)
		servers := strings.Join(slices.Sorted(maps.Keys(f.Servers)), ",")
		if f.Err != nil {
			servers = "error"
		}
		out = append(out, fmt.Sprintf("%s %s %s", f.Client, filepath.ToSlash(rel), servers))
	}
	return out
}

func TestSelectFound(t *testing.T) {
	found := []Found{
		{Client: ClientCursor, Path: "/c", Servers: map[string]Server{"linear": {URL: "https://l/sse"}, "db": {Command: "uvx"}}},
		{Client: ClientVSCode, Path: "/v", Servers: map[string]Server{"memory": {Command: "npx"}}},
		{Client: ClientClaudeDesktop, Path: "/d", Err: fmt.Errorf("broken")},
	}
	tests := []struct {
		name      string
		selectors []string
		want      string
		wantErr   string
	}{
		{"everything readable", nil, "cursor:db,linear vscode:memory", ""},
		{"one client", []string{"vscode"}, "vscode:memory", ""},
		{"one server", []string{"cursor:linear"}, "cursor:linear", ""},
		{"overlapping selectors", []string{"cursor", "cursor:db"}, "cursor:db,linear", ""},
		{"unknown server", []string{"cursor:nope"}, "", `"cursor:nope" matches no discovered server`},
		{"unreadable file", []string{"claude-desktop"}, "", "matches no discovered server"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SelectFound(found, tt.selectors)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			var parts []string
			for _, f := range got {
				parts = append(parts, f.Client+":"+strings.Join(slices.Sorted(maps.Keys(f.Servers)), ","))
			}
			if strings.Join(parts, " ") != tt.want {
				t.Errorf("got %q, want %q", parts, tt.want)
			}
		})
	}
}

func TestFoundJSONHidesValues(t *testing.T) {
	f := Found{Client: ClientCursor, Path: "/p", Servers: map[string]Server{
		"api": {Type: TypeHTTP, URL: "https://x/mcp", Headers: map[string]string{"Authorization": "Bearer literal-secret"}},
		"cli": {Type: TypeStdio, Command: "x", Env: map[string]string{"TOKEN": "another-secret"}},
	}, Err: fmt.Errorf("partly broken")}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, secret := range []string{"literal-secret", "another-secret"} {
		if strings.Contains(text, secret) {
			t.Errorf("JSON shows a value: %s", text)
		}
	}
	for _, want := range []string{`"headerKeys":["Authorization"]`, `"envKeys":["TOKEN"]`, `"error":"partly broken"`, `"locality":"remote"`} {
		if !strings.Contains(text, want) {
			t.Errorf("JSON lacks %s: %s", want, text)
		}
	}
}

func TestNameList(t *testing.T) {
	servers := map[string]Server{"b": {Command: "x", Disabled: true}, "a": {Command: "y"}, "c": {URL: "https://z"}}
	if got := NameList(servers); got != "a, b [disabled], c" {
		t.Errorf("NameList = %q", got)
	}
	if got := NameList(nil); got != "" {
		t.Errorf("NameList(nil) = %q", got)
	}
}
