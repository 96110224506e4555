package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

// fakeEnv is a lookup function over a fixed map.
func fakeEnv(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

func TestExpandEnv(t *testing.T) {
	env := fakeEnv(map[string]string{"HOME": "/home/u", "EMPTY": "", "TOKEN": "s3cret", "REF": "${HOME}"})
	tests := []struct {
		name      string
		in        string
		want      string
		wantUnset []string
		wantErr   string
	}{
		{"no reference", "plain $HOME text", "plain $HOME text", nil, ""},
		{"one", "${HOME}/x", "/home/u/x", nil, ""},
		{"two", "${HOME}:${TOKEN}", "/home/u:s3cret", nil, ""},
		{"default unused", "${HOME:-/tmp}", "/home/u", nil, ""},
		{"default for unset", "${NOPE:-/tmp}", "/tmp", nil, ""},
		{"default for empty", "${EMPTY:-fallback}", "fallback", nil, ""},
		{"empty default", "a${NOPE:-}b", "ab", nil, ""},
		{"set but empty", "[${EMPTY}]", "[]", nil, ""},
		{"unset", "Bearer ${NOPE}", "", []string{"NOPE"}, ""},
		{"unset twice reported once", "${A}${B}${A}", "", []string{"A", "B"}, ""},
		{"values are not expanded again", "${REF}", "${HOME}", nil, ""},
		{"lone dollar", "$ and $$ and ${", "", nil, "unterminated"},
		{"escaped reference", "$${NOPE} and ${HOME}", "${NOPE} and /home/u", nil, ""},
		{"escaped VS Code form", "$${input:api-key}", "${input:api-key}", nil, ""},
		{"VS Code input", "${input:api-key}", "", nil, "not a variable reference"},
		{"VS Code env", "${env:HOME}", "", nil, "not a variable reference"},
		{"empty name", "${}", "", nil, "not a variable reference"},
		{"digit first", "${1A}", "", nil, "not a variable reference"},
		{"assign form", "${A:=b}", "", nil, "not a variable reference"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, unset, err := expandEnv(tt.in, env)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(unset, ",") != strings.Join(tt.wantUnset, ",") {
				t.Errorf("unset %q, want %q", unset, tt.wantUnset)
			}
			if len(tt.wantUnset) == 0 && got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

const specsConfig = `{
  "mcpServers": {
    "zeta": {"command": "z", "args": ["--flag"], "env": {"HOME_DIR": "${HOME}", "MODE": "${MODE:-fast}"}, "timeout": 5, "costPerCall": 0.5, "costPerSecond": 0.25, "disabledTools": ["rm"], "clientRoots": true},
    "alpha": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${API_TOKEN}"}},
    "local_sse": {"url": "http://127.0.0.1:9000/sse"},
    "off": {"command": "x", "enabled": false, "env": {"X": "${NEVER_SET}"}},
  },
}`

func TestSpecs(t *testing.T) {
	f, err := Parse("c.json", []byte(specsConfig))
	if err != nil {
		t.Fatal(err)
	}
	specs, err := f.Specs(fakeEnv(map[string]string{"HOME": "/h", "API_TOKEN": "tok"}))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "alpha local_sse zeta" {
		t.Fatalf("names %q, want the enabled servers sorted", names)
	}
	alpha, local, zeta := specs[0], specs[1], specs[2]
	if alpha.Transport != hub.TransportHTTP || alpha.Locality != hub.LocalityRemote || alpha.Headers["Authorization"] != "Bearer tok" {
		t.Errorf("alpha = %+v", alpha)
	}
	if local.Transport != hub.TransportSSE || local.Locality != hub.LocalityLocal {
		t.Errorf("local_sse = %+v", local)
	}
	if zeta.Transport != hub.TransportStdio || zeta.Locality != hub.LocalityLocal ||
		zeta.Env["HOME_DIR"] != "/h" || zeta.Env["MODE"] != "fast" || zeta.Timeout.Seconds() != 5 ||
		zeta.CostPerCall != 0.5 || zeta.CostPerSecond != 0.25 || zeta.DisabledTools[0] != "rm" || zeta.Args[0] != "--flag" || !zeta.ClientRoots {
		t.Errorf("zeta = %+v", zeta)
	}
	if f.MCPServers["zeta"].Env["HOME_DIR"] != "${HOME}" {
		t.Error("Specs changed the parsed file")
	}
}

func TestSpecsReportsUnsetVariables(t *testing.T) {
	f, err := Parse("c.json", []byte(specsConfig))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Specs(fakeEnv(map[string]string{"API_TOKEN": "very-secret-value"}))
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want *ProblemsError", err)
	}
	want := `c.json:3:70: server "zeta": env.HOME_DIR: environment variable HOME is not set (set it, or write ${HOME:-default})`
	if len(pe.Problems) != 1 || pe.Problems[0].String() != want {
		t.Errorf("got:\n%v\nwant:\n%s", err, want)
	}
	if strings.Contains(err.Error(), "very-secret-value") {
		t.Error("a variable's value was printed")
	}
}

func TestSpecsReportsMalformedReferences(t *testing.T) {
	f, err := Parse("c.json", []byte(`{"mcpServers": {"v": {"command": "x", "env": {"KEY": "${input:key}"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Specs(fakeEnv(nil))
	if err == nil || !strings.Contains(err.Error(), `c.json:1:54: server "v": env.KEY: "${input:key}" is not a variable reference`) {
		t.Errorf("got %v", err)
	}
}

func FuzzExpandEnv(f *testing.F) {
	for _, s := range []string{"", "plain", "${A}", "${A:-b}", "x${A}y${B:-}z", "${", "${input:x}", "$${A}}", "${A:-${B}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		unsetAll := func(string) (string, bool) { return "", false }
		out, unset, err := expandEnv(s, unsetAll)
		if !strings.Contains(s, "${") && (out != s || unset != nil || err != nil) {
			t.Fatalf("text without references changed: %q -> %q %v %v", s, out, unset, err)
		}
		// Substituted values are never expanded, whatever they contain.
		tricky := func(string) (string, bool) { return "${", true }
		_, unset2, err2 := expandEnv(s, tricky)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("syntax verdict depends on values: %v vs %v", err, err2)
		}
		if err2 == nil && len(unset2) != 0 {
			t.Fatalf("unset %q with every variable set", unset2)
		}
		for _, name := range unset {
			if !isEnvName(name) || !strings.Contains(s, "${"+name+"}") {
				t.Fatalf("unset %q is not a plain reference in %q", name, s)
			}
		}
	})
}
