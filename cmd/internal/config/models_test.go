package config

import (
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

func TestReadModelsFillsDefaults(t *testing.T) {
	src := `{
  // experts, in alias order
  "models": {
    "big": {"baseUrl": "https://api.openai.com/v1", "model": "gpt-5", "apiKeyEnv": "OPENAI_API_KEY",
            "roles": ["search", "answer"], "answerStyle": "tagged", "capability": "strong."},
    "local": {"baseUrl": "http://127.0.0.1:8080/v1", "model": "Qwen/Qwen3-32B", "roles": ["answer"], "priceOut": 0.5},
  },
  "orchestrator": {"temperature": 0, "maxTurns": 20},
}`
	m, err := ReadModels("t.jsonc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Endpoints) != 2 || m.Endpoints[0].Name != "big" || m.Endpoints[1].Name != "local" {
		t.Fatalf("endpoints %+v", m.Endpoints)
	}
	big, local := m.Endpoints[0], m.Endpoints[1]
	if big.PriceIn != 1.25 || big.PriceOut != 10 || big.Locality != hub.LocalityRemote || big.AnswerStyle != "tagged" {
		t.Fatalf("big %+v", big)
	}
	if local.PriceIn != 0.8 || local.PriceOut != 0.5 || local.Locality != hub.LocalityLocal || local.AnswerStyle != "boxed" {
		t.Fatalf("local %+v (known price fills only the gap)", local)
	}
	o := m.Orchestrator
	if o.ModelID != DefaultOrchestratorModel || o.BaseURL != DefaultOrchestratorURL || o.PriceIn != 0.2 || m.Temperature != 0 || m.MaxTurns != 20 {
		t.Fatalf("orchestrator %+v temperature %v turns %d", o, m.Temperature, m.MaxTurns)
	}
}

func TestReadModelsWithoutSections(t *testing.T) {
	m, err := ReadModels("t.json", []byte(`{"mcpServers": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Endpoints) != 0 || m.Orchestrator.Name != DefaultOrchestratorName || m.Temperature != DefaultTemperature {
		t.Fatalf("%+v", m)
	}
}

func TestReadModelsProblems(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want string
	}{
		{"unknown key", `{"models": {"a": {"baseUrl": "http://h/v1", "model": "m", "prise": 1}}}`, `t.json:1:59: models.a: unknown key "prise"`},
		{"bad role", `{"models": {"a": {"baseUrl": "http://h/v1", "model": "m", "roles": ["answr"]}}}`, `unknown role "answr" (did you mean "answer"?)`},
		{"missing url", `{"models": {"a": {"model": "m"}}}`, "t.json:1:18: models.a: baseUrl is required"},
		{"missing model", "{\n\"models\": {\"a\": {\"baseUrl\": \"http://h\"}}}", "t.json:2:17: models.a: model is required"},
		{"negative price", `{"models": {"a": {"baseUrl": "http://h", "model": "m", "priceIn": -1}}}`, "price must not be negative"},
		{"bad style", `{"models": {"a": {"baseUrl": "http://h", "model": "m", "answerStyle": "latex"}}}`, `want "boxed" or "tagged"`},
		{"bad locality", `{"models": {"a": {"baseUrl": "http://h", "model": "m", "locality": "moon"}}}`, `got "moon"`},
		{"bad timeout", `{"models": {"a": {"baseUrl": "http://h", "model": "m", "timeout": "soon"}}}`, "positive duration"},
		{"turns too many", `{"orchestrator": {"maxTurns": 51}}`, "want 1 to 50"},
		{"not an object", `{"models": []}`, "models: want an object"},
		{"ftp url", `{"orchestrator": {"baseUrl": "ftp://h"}}`, "not an http(s) URL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadModels("t.json", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func FuzzReadModels(f *testing.F) {
	f.Add(`{"models": {"a": {"baseUrl": "http://h/v1", "model": "gpt-5", "roles": ["answer"]}}}`)
	f.Add(`{"orchestrator": {"maxTurns": 3, "temperature": 0.5}}`)
	f.Add(`{"models": {"a": {"timeout": 5}}}`)
	f.Fuzz(func(t *testing.T, src string) {
		m, err := ReadModels("f.json", []byte(src))
		if err == nil {
			for _, ep := range m.Endpoints {
				if ep.Validate() != nil {
					t.Fatalf("accepted an invalid endpoint: %+v", ep)
				}
			}
		}
	})
}
