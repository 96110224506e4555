package daemon

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/modelhost"
	"github.com/toolhub/toolhub/tools"
)

func writeConfig(t *testing.T, src string) *config.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "toolhub.json")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return &config.File{Path: path}
}

func TestBuiltinToolSpecs(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	withKey := func(name string) (string, bool) {
		return map[string]string{"TAVILY_API_KEY": "k"}[name], name == "TAVILY_API_KEY"
	}
	noKey := func(string) (string, bool) { return "", false }
	// The python tool is offered where it can run: a python and prlimit
	// on Linux and the BSDs, nowhere on Windows.
	var python []string
	if _, err := tools.NewPython(tools.PythonOptions{Logger: quiet}); err == nil {
		python = []string{"toolhub-python"}
	} else {
		t.Logf("no python tool here: %v", err)
	}
	cases := []struct {
		name   string
		src    string
		lookup func(string) (string, bool)
		want   []string
	}{
		{"defaults: python only", `{}`, noKey, python},
		{"web search without its key", `{"webSearch": {"provider": "tavily"}}`, noKey, python},
		{"web search with its key", `{"webSearch": {"provider": "tavily"}}`, withKey, append(slices.Clone(python), "toolhub-web-search")},
		{"python off", `{"python": {"enabled": false}, "webSearch": {"provider": "tavily"}}`, withKey, []string{"toolhub-web-search"}},
		{"a bad webSearch section is left out", `{"webSearch": {"provider": "bing"}}`, withKey, python},
		{"a bad python section turns python off", `{"python": {"enabled": false, "memoryMB": -1}, "webSearch": {"provider": "tavily"}}`,
			withKey, []string{"toolhub-web-search"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			specs, err := builtinToolSpecs(writeConfig(t, tc.src), tc.lookup, quiet)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range specs {
				names = append(names, s.Name)
				if s.Name == "toolhub-web-search" && (s.Locality != hub.LocalityRemote || s.CostPerCall != 0.01) {
					t.Errorf("web search spec %+v", s)
				}
				if s.Name == "toolhub-python" && (s.Locality != hub.LocalityLocal || s.CostPerCall != 0 || s.CostPerSecond != 0.0000083 || !s.Unprefixed) {
					t.Errorf("python spec %+v", s)
				}
			}
			if !slices.Equal(names, tc.want) {
				t.Fatalf("specs %v, want %v", names, tc.want)
			}
		})
	}
}

func TestNewModelHostFromConfig(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	m, err := config.ReadModels("t.json", []byte(`{"orchestrator": {"baseUrl": "http://127.0.0.1:8080/v1",
		"launch": {"command": ["llama-server", "--jinja"], "env": {"HF_HOME": "${CACHE:-/tmp/hf}"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewModelHost(m, config.Lookup{Env: func(string) (string, bool) { return "", false }}, quiet)
	if err != nil || h == nil {
		t.Fatalf("host %v, %v", h, err)
	}
	if st := h.Status(); st.State != modelhost.Stopped || st.HealthURL != "http://127.0.0.1:8080/health" || st.Command[0] != "llama-server" {
		t.Fatalf("status %+v", st)
	}
	none, err := config.ReadModels("t.json", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if h, err := NewModelHost(none, config.Lookup{}, quiet); h != nil || err != nil {
		t.Fatalf("no launch block gave %v, %v", h, err)
	}
}
