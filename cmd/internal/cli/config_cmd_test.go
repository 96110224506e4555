package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
)

// configEnv isolates a test from the real machine: HOME, the user config
// directory and the working directory are fresh temp dirs, and
// $TOOLHUB_CONFIG is unset. It returns the home directory.
func configEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home) // the home directory on Windows
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("APPDATA", filepath.Join(home, "AppData", "Roaming"))
	t.Setenv("LOCALAPPDATA", filepath.Join(home, "AppData", "Local"))
	t.Setenv(config.EnvVar, "")
	// Secrets go to a file in the fake config directory, never to the
	// user's keychain.
	t.Setenv(daemon.SecretsBackendEnv, "file")
	project := filepath.Join(home, "project")
	mustWrite(t, filepath.Join(project, "README"), "")
	t.Chdir(project)
	return home
}

// runConfigCmd runs the command line with args and returns its exit status
// and output.
func runConfigCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runWithStdin(t, "", args...)
}

// runWithStdin is runConfigCmd with stdin reading in (a pipe, not a terminal).
func runWithStdin(t *testing.T, in string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(context.Background(), args, Stdio{In: strings.NewReader(in), Out: &out, Err: &errOut})
	return code, out.String(), errOut.String()
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

const (
	goodConfig = `{
  // two servers
  "mcpServers": {
    "a": {"command": "x", "env": {"TOKEN": "${CFG_TEST_TOKEN}"}},
    "b": {"url": "https://example.com/mcp", "enabled": false},
  },
}`
	cursorFile = `{"mcpServers": {
  "linear": {"url": "https://mcp.linear.app/sse"},
  "db": {"command": "uvx", "args": ["mcp-server-sqlite"]}
}}`
)

type cliCase struct {
	name       string
	setup      func(t *testing.T, home string)
	args       []string
	wantCode   int
	wantStdout []string
	wantStderr []string
	notStderr  []string // none may appear on stderr
	check      func(t *testing.T, home string)
}

func runCLICases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := configEnv(t)
			if tc.setup != nil {
				tc.setup(t, home)
			}
			args := make([]string, len(tc.args))
			for i, a := range tc.args {
				args[i] = expandPlaceholders(t, a, home)
			}
			code, stdout, stderr := runConfigCmd(t, args...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, stdout, stderr)
			}
			assertContains(t, "stdout", stdout, tc.wantStdout, home)
			assertContains(t, "stderr", stderr, tc.wantStderr, home)
			for _, unwanted := range tc.notStderr {
				if strings.Contains(stderr, unwanted) {
					t.Errorf("stderr has %q:\n%s", unwanted, stderr)
				}
			}
			if tc.check != nil {
				tc.check(t, home)
			}
		})
	}
}

// homePath is a path under the HOME placeholder, up to where a message
// goes on after it.
var homePath = regexp.MustCompile(`HOME(/[^\s:"()]*)?`)

// expandPlaceholders replaces DEFAULT_CONFIG with the default config path
// and HOME with the fake home directory; a path under HOME is written as
// this system writes paths.
func expandPlaceholders(t *testing.T, s, home string) string {
	t.Helper()
	s = strings.ReplaceAll(s, "DEFAULT_CONFIG", defaultConfig(t))
	return homePath.ReplaceAllStringFunc(s, func(m string) string {
		return home + filepath.FromSlash(strings.TrimPrefix(m, "HOME"))
	})
}

// defaultConfig is where toolhub's config lives when nothing overrides it.
func defaultConfig(t *testing.T) string {
	t.Helper()
	dir, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "toolhub", "config.json")
}

func assertContains(t *testing.T, what, got string, wants []string, home string) {
	t.Helper()
	for _, want := range wants {
		if want = expandPlaceholders(t, want, home); !strings.Contains(got, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, got)
		}
	}
}

func TestConfigPathInitCheck(t *testing.T) {
	defaultPath := "DEFAULT_CONFIG"
	runCLICases(t, []cliCase{
		{name: "path default", args: []string{"config", "path"}, wantStdout: []string{defaultPath + "\n"},
			wantStderr: []string{"the default location; does not exist yet"}},
		{name: "path from flag", args: []string{"--config", "HOME/c.json", "config", "path"},
			setup:      func(t *testing.T, home string) { mustWrite(t, filepath.Join(home, "c.json"), "{}") },
			wantStdout: []string{"HOME/c.json\n"}, wantStderr: []string{"from --config; exists"}},
		{name: "path from env", args: []string{"config", "path"},
			setup:      func(t *testing.T, home string) { t.Setenv(config.EnvVar, filepath.Join(home, "e.json")) },
			wantStdout: []string{"HOME/e.json\n"}, wantStderr: []string{"from $TOOLHUB_CONFIG"}},
		{name: "init writes the starter", args: []string{"config", "init"}, wantStdout: []string{"wrote " + defaultPath},
			check: func(t *testing.T, home string) {
				if _, err := config.Load(defaultConfig(t), config.SourceFlag); err != nil {
					t.Errorf("the written starter does not load: %v", err)
				}
			}},
		{name: "init refuses to overwrite", args: []string{"--config", "HOME/c.json", "config", "init"}, wantCode: 2,
			setup:      func(t *testing.T, home string) { mustWrite(t, filepath.Join(home, "c.json"), goodConfig) },
			wantStderr: []string{"already exists; --force overwrites it"},
			check:      func(t *testing.T, home string) { assertFile(t, filepath.Join(home, "c.json"), goodConfig) }},
		{name: "init --force overwrites", args: []string{"--config", "HOME/c.json", "config", "init", "--force"},
			setup: func(t *testing.T, home string) { mustWrite(t, filepath.Join(home, "c.json"), goodConfig) },
			check: func(t *testing.T, home string) {
				assertFile(t, filepath.Join(home, "c.json"), string(config.Starter()))
			}},
		{name: "check ok", args: []string{"--config", "HOME/c.json", "config", "check"},
			setup: func(t *testing.T, home string) {
				mustWrite(t, filepath.Join(home, "c.json"), goodConfig)
				t.Setenv("CFG_TEST_TOKEN", "hunter2")
			},
			wantStdout: []string{"ok: 2 servers (a, b [disabled])\n"},
			wantStderr: []string{`warning: server "a": command "x" is on no PATH entry here`}},
		{name: "check is quiet about a command it finds", args: []string{"--config", "HOME/c.json", "config", "check"},
			setup: func(t *testing.T, home string) {
				bin, file := filepath.Join(home, "bin"), "srv"
				if runtime.GOOS == "windows" {
					file = "srv.cmd" // a program there is a file with a PATHEXT extension
				}
				mustWrite(t, filepath.Join(bin, file), "#!/bin/sh\n")
				if err := os.Chmod(filepath.Join(bin, file), 0o755); err != nil {
					t.Fatal(err)
				}
				quoted, _ := json.Marshal(bin) // a Windows path's backslashes escaped
				mustWrite(t, filepath.Join(home, "c.json"), `{"mcpServers": {"s": {"command": "srv", "env": {"PATH": `+string(quoted)+`}}}}`)
			},
			wantStdout: []string{"ok: 1 server (s)\n"}, notStderr: []string{"warning"}},
		{name: "check reports unset variables", args: []string{"--config", "HOME/c.json", "config", "check"}, wantCode: 2,
			setup:      func(t *testing.T, home string) { mustWrite(t, filepath.Join(home, "c.json"), goodConfig) },
			wantStdout: []string{`HOME/c.json:4:44: server "a": env.TOKEN: environment variable CFG_TEST_TOKEN is not set`},
			wantStderr: []string{"1 problem in the config"}},
		{name: "check reports every problem", args: []string{"--config", "HOME/c.json", "config", "check"}, wantCode: 2,
			setup: func(t *testing.T, home string) {
				mustWrite(t, filepath.Join(home, "c.json"), "{\"mcpServer\": {},\n \"documents\": {\"roots\": 1}}")
			},
			wantStdout: []string{`HOME/c.json:1:2: unknown top-level key "mcpServer" (did you mean "mcpServers"?)`,
				`HOME/c.json:2:25: documents.roots: want an array of strings, got a number`}},
		{name: "check reports the unset variables of good entries beside bad entries", args: []string{"--config", "HOME/c.json", "config", "check"}, wantCode: 2,
			setup: func(t *testing.T, home string) {
				mustWrite(t, filepath.Join(home, "c.json"), "{\"mcpServers\": {\"bad\": {\"args\": []},\n \"a\": {\"command\": \"x\", \"env\": {\"T\": \"${CFG_TEST_UNSET}\"}}}}")
			},
			wantStdout: []string{`HOME/c.json:1:17: server "bad": needs "command"`,
				`HOME/c.json:2:37: server "a": env.T: environment variable CFG_TEST_UNSET is not set`},
			wantStderr: []string{"2 problems in the config"}},
		{name: "check reports the sections serve leaves out beside the servers' problems",
			args: []string{"--config", "HOME/c.json", "config", "check"}, wantCode: 2,
			setup: func(t *testing.T, home string) {
				mustWrite(t, filepath.Join(home, "c.json"), "{\"mcpServers\": {\"bad\": {\"args\": []}},\n"+
					" \"models\": {\"m\": {\"baseUrl\": \"ftp://h\", \"model\": \"q\"}},\n"+
					" \"orchestrator\": {\"variant\": \"gaia\"},\n \"webSearch\": {\"provider\": \"bing\"}}")
			},
			wantStdout: []string{`HOME/c.json:1:17: server "bad": needs "command"`,
				`HOME/c.json:2:18: models.m: baseUrl "ftp://h" is not an http(s) URL`,
				`HOME/c.json:3:30: orchestrator.variant: research variant "gaia"`,
				`HOME/c.json:4:28: webSearch.provider: want "tavily" or "brave", got "bing"`},
			wantStderr: []string{"4 problems in the config"}},
		{name: "check reports a bad model section when the servers are good",
			args: []string{"--config", "HOME/c.json", "config", "check"}, wantCode: 2,
			setup: func(t *testing.T, home string) {
				mustWrite(t, filepath.Join(home, "c.json"), `{"orchestrator": {"maxTurns": 0}}`)
			},
			wantStdout: []string{`HOME/c.json:1:31: orchestrator.maxTurns: want 1 to`},
			wantStderr: []string{"1 problem in the config"}},
		{name: "check warns of an absolute command where no file is", args: []string{"--config", "HOME/c.json", "config", "check"},
			setup: func(t *testing.T, home string) {
				quoted, _ := json.Marshal(filepath.Join(home, "gone", "srv"))
				mustWrite(t, filepath.Join(home, "c.json"), `{"mcpServers": {"s": {"command": `+string(quoted)+`}}}`)
			},
			wantStdout: []string{"ok: 1 server (s)\n"}, wantStderr: []string{`warning: server "s": there is no file at`, "correct the path"}},
		{name: "check warns of a command that is a folder", args: []string{"--config", "HOME/c.json", "config", "check"},
			setup: func(t *testing.T, home string) {
				quoted, _ := json.Marshal(home)
				mustWrite(t, filepath.Join(home, "c.json"), `{"mcpServers": {"s": {"command": `+string(quoted)+`}}}`)
			},
			wantStdout: []string{"ok: 1 server (s)\n"}, wantStderr: []string{`warning: server "s": "`, `is a folder, not a program, so it would fail to start; give the path of the program itself`}},
		{name: "check with no config anywhere", args: []string{"config", "check"}, wantStdout: []string{"ok: 0 servers\n"}},
		{name: "check a missing --config", args: []string{"--config", "HOME/nope.json", "config", "check"}, wantCode: 2,
			wantStderr: []string{"nope.json (from --config): file does not exist"}},
		{name: "unknown subcommand flag", args: []string{"config", "check", "--bogus"}, wantCode: 2},
	})
}

func TestConfigImport(t *testing.T) {
	withCursor := func(t *testing.T, home string) {
		mustWrite(t, filepath.Join(home, ".cursor", "mcp.json"), cursorFile)
	}
	target := "DEFAULT_CONFIG"
	runCLICases(t, []cliCase{
		{name: "import all", args: []string{"config", "import", "HOME/.cursor/mcp.json"}, setup: withCursor,
			wantStdout: []string{"added   db\nadded   linear\n", "2 added to " + target + ", 0 skipped"},
			check: func(t *testing.T, home string) {
				f, err := config.Load(defaultConfig(t), config.SourceFlag)
				if err != nil || f.MCPServers["linear"].Type != config.TypeSSE || f.MCPServers["db"].Args[0] != "mcp-server-sqlite" {
					t.Errorf("imported config: %+v, %v", f, err)
				}
			}},
		{name: "import skips what is there", args: []string{"--config", "HOME/t.json", "config", "import", "HOME/.cursor/mcp.json"},
			setup: func(t *testing.T, home string) {
				withCursor(t, home)
				mustWrite(t, filepath.Join(home, "t.json"), `{"mcpServers": {"db": {"command": "other"}, "lin": {"url": "https://mcp.linear.app/sse/"}}}`)
			},
			wantStdout: []string{"skipped db: already in the config\n", `skipped linear: duplicate of "lin"`, "0 added"}},
		{name: "import --only", args: []string{"config", "import", "HOME/.cursor/mcp.json", "--only", "linear"}, setup: withCursor,
			wantStdout: []string{"added   linear\n", "1 added"}},
		{name: "import --only by the file's name of a renamed server", args: []string{"config", "import", "HOME/claude.json", "--only", "my.server"},
			setup: func(t *testing.T, home string) {
				mustWrite(t, filepath.Join(home, "claude.json"), `{"mcpServers": {"my.server": {"command": "node"}, "other": {"command": "x"}}}`)
			},
			wantStdout: []string{"added   my-server\n", "1 added"}, wantStderr: []string{`server "my.server" renamed "my-server"`}},
		{name: "import --only warns of the servers it imports only", args: []string{"config", "import", "HOME/claude.json", "--only", "plain"},
			setup: func(t *testing.T, home string) {
				mustWrite(t, filepath.Join(home, "claude.json"), `{"mcpServers": {"my.server": {"command": "node"}, "plain": {"command": "x", "bogusKey": 1}}}`)
			},
			wantStdout: []string{"added   plain\n", "1 added"}, wantStderr: []string{`"bogusKey" is not used`},
			notStderr: []string{"my.server"}},
		{name: "import warns of VS Code's own variables", args: []string{"config", "import", "HOME/mcp.json"},
			setup: func(t *testing.T, home string) {
				mustWrite(t, filepath.Join(home, "mcp.json"), `{"servers": {"vs": {"command": "uvx", "env": {"WS": "${workspaceFolder}/data"}}}}`)
			},
			wantStdout: []string{"added   vs\n"},
			wantStderr: []string{`server "vs": env.WS: VS Code's ${workspaceFolder} has no value outside a VS Code window`}},
		{name: "import --only unknown", args: []string{"config", "import", "HOME/.cursor/mcp.json", "--only", "nope"}, setup: withCursor,
			wantCode: 2, wantStderr: []string{"--only nope: no such server in the file; it has (db, linear)"}},
		{name: "import a missing file", args: []string{"config", "import", "HOME/absent.json"}, wantCode: 2,
			wantStderr: []string{"absent.json"}},
		{name: "import a file with a syntax error", args: []string{"config", "import", "HOME/bad.json"}, wantCode: 2,
			setup:      func(t *testing.T, home string) { mustWrite(t, filepath.Join(home, "bad.json"), `{"mcpServers": {,}}`) },
			wantStderr: []string{"HOME/bad.json:1:17: syntax error"}},
		{name: "import into a broken config", args: []string{"--config", "HOME/t.json", "config", "import", "HOME/.cursor/mcp.json"},
			setup: func(t *testing.T, home string) {
				withCursor(t, home)
				mustWrite(t, filepath.Join(home, "t.json"), `{"mcpServers": {"a": {}}}`)
			},
			wantCode: 2, wantStdout: []string{`HOME/t.json:1:17: server "a": needs "command"`}},
		{name: "import needs a file", args: []string{"config", "import"}, wantCode: 2},
	})
}

func TestConfigDiscover(t *testing.T) {
	setup := func(t *testing.T, home string) {
		mustWrite(t, filepath.Join(home, ".cursor", "mcp.json"), cursorFile)
		userConfig, _ := os.UserConfigDir()
		mustWrite(t, filepath.Join(userConfig, "Code", "User", "mcp.json"),
			`{"servers": {"gh": {"type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer ${input:tok}"}}}}`)
		mustWrite(t, filepath.Join(home, "project", ".mcp.json"), `{"mcpServers": {"db": {"command": "uvx", "args": ["mcp-server-sqlite"]}}}`)
	}
	runCLICases(t, []cliCase{
		{name: "list", args: []string{"config", "discover"}, setup: setup,
			wantStdout: []string{"cursor  HOME/.cursor/mcp.json\n", "cursor:linear", "https://mcp.linear.app/sse", "vscode:gh",
				"claude-code  HOME/project/.mcp.json\n", "claude-code:db"},
			wantStderr: []string{"import with: toolhub config discover --all"}},
		{name: "list as JSON", args: []string{"config", "discover", "--json"}, setup: setup,
			wantStdout: []string{`"client": "cursor"`, `"headerKeys": [`}},
		{name: "nothing found", args: []string{"config", "discover"}, wantStdout: []string{"no MCP config"}},
		{name: "nothing found to import", args: []string{"config", "discover", "--all"}, wantStdout: []string{"nothing to import: no MCP config"}},
		{name: "import all skips duplicates", args: []string{"config", "discover", "--all"}, setup: setup,
			wantStdout: []string{"from cursor (HOME/.cursor/mcp.json):\nadded   db\nadded   linear\n", "added   gh\n",
				"from claude-code (HOME/project/.mcp.json):\nskipped db: already in the config\n"},
			wantStderr: []string{`VS Code's input "tok" now reads ${keychain:gh.tok}`, "unless that secret is set already, set it with `toolhub config set-secret gh tok`"}},
		{name: "import some", args: []string{"config", "discover", "--only", "cursor:linear,vscode"}, setup: setup,
			wantStdout: []string{"added   linear\n", "added   gh\n"},
			check: func(t *testing.T, home string) {
				f, err := config.Load(defaultConfig(t), config.SourceFlag)
				if err != nil || len(f.MCPServers) != 2 {
					t.Errorf("config after --only: %v servers, %v", f.ServerNames(), err)
				}
			}},
		{name: "import some warns of those only", args: []string{"config", "discover", "--only", "cursor:linear"},
			setup: func(t *testing.T, home string) {
				mustWrite(t, filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers": {"linear": {"url": "https://mcp.linear.app/sse", "bogusKey": 1}, "x.y": {"command": "x"}}}`)
			},
			wantStdout: []string{"added   linear\n", "1 added"}, wantStderr: []string{`"bogusKey" is not used`}, notStderr: []string{"x.y"}},
		{name: "unknown selector", args: []string{"config", "discover", "--only", "cursor:nope"}, setup: setup, wantCode: 2,
			wantStderr: []string{`"cursor:nope" matches no discovered server`}},
		{name: "json with import", args: []string{"config", "discover", "--all", "--json"}, setup: setup, wantCode: 2},
	})
}

func TestDiscoverJSONIsValid(t *testing.T) {
	home := configEnv(t)
	mustWrite(t, filepath.Join(home, ".cursor", "mcp.json"), cursorFile)
	code, stdout, _ := runConfigCmd(t, "config", "discover", "--json")
	var found []struct {
		Client  string
		Servers []config.ServerSummary
	}
	if err := json.Unmarshal([]byte(stdout), &found); err != nil || code != 0 {
		t.Fatalf("exit %d, %v:\n%s", code, err, stdout)
	}
	if len(found) != 1 || found[0].Client != "cursor" || len(found[0].Servers) != 2 || found[0].Servers[1].Type != "sse" {
		t.Errorf("found %+v", found)
	}
}

func TestLoadConfigTurnsProblemsIntoUsageErrors(t *testing.T) {
	home := configEnv(t)
	path := filepath.Join(home, "c.json")
	mustWrite(t, path, `{"mcpServers": {"a": {"command": 1}}}`)
	g := &globals{configPath: path}
	_, err := g.loadConfig()
	if exitCode(err) != exitUsage || !strings.Contains(err.Error(), path+":1:34:") {
		t.Errorf("loadConfig error %v (exit %d), want a positioned usage error", err, exitCode(err))
	}
	mustWrite(t, path, goodConfig)
	if f, err := g.loadConfig(); err != nil || len(f.MCPServers) != 2 {
		t.Errorf("loadConfig = %v, %v", f, err)
	}
}

func assertFile(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Errorf("%s holds:\n%s\nwant:\n%s (%v)", path, got, want, err)
	}
}
