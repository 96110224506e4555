package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadClientFile(t *testing.T) {
	tests := []struct {
		name       string
		path       string
		wantClient string
	}{
		{"claude_desktop", "claude/claude_desktop_config.json", ClientClaudeDesktop},
		{"cursor", ".cursor/mcp.json", ClientCursor},
		{"vscode_mcp", "Code/User/mcp.json", ClientVSCode},
		{"vscode_settings", "Code/User/settings.json", ClientVSCode},
		{"claude_code_user", "home/.claude.json", ClientClaudeCode},
		{"claude_code_project", "project/.mcp.json", ClientClaudeCode},
		{"windsurf", ".codeium/windsurf/mcp_config.json", ClientWindsurf},
		{"cline", "cline/cline_mcp_settings.json", ClientGeneric},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cf, err := ReadClientFile(filepath.Join("testdata", "clients", tt.path))
			if err != nil {
				t.Fatal(err)
			}
			if cf.Client != tt.wantClient {
				t.Errorf("client %q, want %q", cf.Client, tt.wantClient)
			}
			checkGolden(t, filepath.Join("testdata", "clients", "golden", tt.name+".golden"), []byte(describeClientFile(cf)))
		})
	}
}

// describeClientFile prints what was read, reusing the config description.
func describeClientFile(cf *ClientFile) string {
	var b strings.Builder
	fmt.Fprintf(&b, "client %s\n", cf.Client)
	b.WriteString(describeServers(cf.Servers))
	for _, w := range cf.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", filepath.ToSlash(w))
	}
	return b.String()
}

func TestReadClientFileErrors(t *testing.T) {
	tests := []struct {
		name     string
		path     string
		wantText string
		problems bool
		notExist bool
	}{
		{"no server list", "broken/no_servers.json", "no MCP servers", false, false},
		{"syntax error", "broken/syntax.json", "syntax.json:1:39: syntax error", true, false},
		{"missing file", "broken/absent.json", "absent.json", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadClientFile(filepath.Join("testdata", "clients", tt.path))
			if err == nil || !strings.Contains(err.Error(), tt.wantText) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantText)
			}
			var pe *ProblemsError
			if errors.As(err, &pe) != tt.problems {
				t.Errorf("error type %T", err)
			}
			if errors.Is(err, fs.ErrNotExist) != tt.notExist {
				t.Errorf("error %v: errors.Is(fs.ErrNotExist) = %v", err, !tt.notExist)
			}
		})
	}
}

func TestSanitizeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"fine_name-2", "fine_name-2"},
		{"github.com/acme/tracker", "github-com-acme-tracker"},
		{"a__b", "a_b"},
		{"a___b", "a_b"},
		{"my server", "my-server"},
		{"", "server"},
	}
	for _, tt := range tests {
		got := sanitizeName(tt.in)
		if got != tt.want || nameProblem(got) != "" {
			t.Errorf("sanitizeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWarningsFor(t *testing.T) {
	src := `{"mcpServers": {
  "my.server": {"command": "node", "env": {"DIR": "${workspaceFolder}"}},
  "other": {"command": "x", "bogusKey": 1},
  "broken": {"args": []}
}, "servers": 3}`
	cf, err := parseClientFile("c.json", ClientClaudeDesktop, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		only  []string
		want  []string // each kept warning contains one of these, in order
		count int
	}{
		{"every server", nil, nil, len(cf.Warnings)},
		// The warning about the file's "servers" stays in each.
		{"the renamed server", []string{"my-server"}, []string{`"my.server" renamed`, "workspaceFolder", "server list"}, 3},
		{"the server with an unused key", []string{"other"}, []string{`"bogusKey"`, "server list"}, 2},
		{"a skipped server", []string{"broken"}, []string{"skipped", "server list"}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := cf.WarningsFor(tc.only)
			if len(got) != tc.count {
				t.Fatalf("%d warnings %q, want %d of %q", len(got), got, tc.count, cf.Warnings)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %d %q, want %q in it", i, got[i], w)
				}
			}
		})
	}
}
