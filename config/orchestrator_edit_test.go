package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSetOrchestrator(t *testing.T) {
	cases := []struct {
		name    string
		initial string // "" for no file
		setup   OrchestratorSetup
		want    []string // in the written file
		wantErr string
	}{
		{"no config yet", "", OrchestratorSetup{BaseURL: "http://127.0.0.1:8080/v1", Model: "orch-8b"},
			[]string{`"baseUrl": "http://127.0.0.1:8080/v1"`, `"model": "orch-8b"`}, ""},
		{"existing section keeps its keys and comments",
			"{\n  // my models\n  \"orchestrator\": {\n    \"baseUrl\": \"http://old:1/v1\",\n    \"temperature\": 0.6\n  }\n}\n",
			OrchestratorSetup{BaseURL: "http://127.0.0.1:8000/v1", Model: "m"},
			[]string{"// my models", `"temperature": 0.6`, `"baseUrl": "http://127.0.0.1:8000/v1"`, `"model": "m"`}, ""},
		{"with a launch preset", "{}",
			OrchestratorSetup{BaseURL: "http://127.0.0.1:8080/v1", Model: "m", Launch: []string{"llama-server", "--port", "8080"}, Health: "http://127.0.0.1:8080/health"},
			[]string{`"launch": {`, `"llama-server"`, `"http://127.0.0.1:8080/health"`}, ""},
		{"not a URL", "{}", OrchestratorSetup{BaseURL: "127.0.0.1:8000", Model: "m"}, nil, "not an http://"},
		{"no model", "{}", OrchestratorSetup{BaseURL: "http://x/v1"}, nil, "needs a model id"},
		{"broken config is left alone", "{\"mcpServers\": [}", OrchestratorSetup{BaseURL: "http://x/v1", Model: "m"}, nil, "fix them first"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.json")
			if tc.initial != "" {
				if err := os.WriteFile(path, []byte(tc.initial), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := SetOrchestrator(path, tc.setup)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				if data, _ := os.ReadFile(path); string(data) != tc.initial {
					t.Fatalf("a refused setup changed the file:\n%s", data)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(data), w) {
					t.Errorf("written config lacks %q:\n%s", w, data)
				}
			}
			m, err := ReadModels(path, data)
			if err != nil {
				t.Fatalf("written config does not read back: %v", err)
			}
			if m.Orchestrator.BaseURL != tc.setup.BaseURL || m.Orchestrator.ModelID != tc.setup.Model {
				t.Fatalf("read back %s %s", m.Orchestrator.BaseURL, m.Orchestrator.ModelID)
			}
			if (m.Launch != nil) != (len(tc.setup.Launch) > 0) {
				t.Fatalf("launch read back %+v", m.Launch)
			}
		})
	}
}
