package config

import (
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/policies"
)

func TestReadModelsFillsDefaults(t *testing.T) {
	src := `{
  // experts, in alias order
  "models": {
    "big": {"baseUrl": "https://api.openai.com/v1", "model": "gpt-5", "apiKeyEnv": "OPENAI_API_KEY",
            "roles": ["search", "answer"], "answerStyle": "tagged", "capability": "strong."},
    "local": {"baseUrl": "http://127.0.0.1:8080/v1", "model": "Qwen/Qwen3-32B", "roles": ["answer"], "priceOut": 0.5},
  },
  "orchestrator": {"temperature": 0, "maxTurns": 20, "policy": "cheapest", "fallback": "knn", "dropSearchWithDocuments": true},
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
	if m.Policy != "cheapest" || m.Fallback != "knn" || !m.DropSearchWithDocuments {
		t.Fatalf("policy %q fallback %q dropSearchWithDocuments %v", m.Policy, m.Fallback, m.DropSearchWithDocuments)
	}
}

// "variant" chooses the research evaluation; FRAMES drops search once
// documents exist unless dropSearchWithDocuments says otherwise.
func TestReadModelsVariant(t *testing.T) {
	tests := []struct {
		name        string
		src         string
		wantVariant policies.Variant
		wantDrop    bool
	}{
		{name: "default", src: `{}`, wantVariant: ""},
		{name: "hle", src: `{"orchestrator": {"variant": "hle"}}`, wantVariant: policies.VariantHLE},
		{name: "frames drops search", src: `{"orchestrator": {"variant": "frames"}}`, wantVariant: policies.VariantFRAMES, wantDrop: true},
		{name: "frames keeping search", src: `{"orchestrator": {"dropSearchWithDocuments": false, "variant": "frames"}}`,
			wantVariant: policies.VariantFRAMES},
		{name: "hle dropping search", src: `{"orchestrator": {"variant": "hle", "dropSearchWithDocuments": true}}`,
			wantVariant: policies.VariantHLE, wantDrop: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ReadModels("t.jsonc", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if m.Variant != tt.wantVariant || m.DropSearchWithDocuments != tt.wantDrop {
				t.Errorf("variant %q drop %v, want %q and %v", m.Variant, m.DropSearchWithDocuments, tt.wantVariant, tt.wantDrop)
			}
		})
	}
}

// "latency" is read per model, for the orchestrator too and for a model
// served by sampling; left out, it stays 0 (the alias table then shows the
// trained or default figure, see policies.AliasLatency).
func TestReadModelsLatency(t *testing.T) {
	src := `{"models": {
    "big": {"baseUrl": "https://api.openai.com/v1", "model": "gpt-5", "latency": "22s"},
    "plain": {"baseUrl": "http://127.0.0.1:8080/v1", "model": "m"},
    "client": {"sampling": true, "latency": "1m30s"}},
  "orchestrator": {"latency": "2s"}}`
	m, err := ReadModels("t.jsonc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := []time.Duration{m.Endpoints[0].Latency, m.Endpoints[1].Latency, m.Endpoints[2].Latency, m.Orchestrator.Latency}
	want := []time.Duration{22 * time.Second, 0, 90 * time.Second, 2 * time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("latencies %v, want %v", got, want)
		}
	}
}

// "orchestrator.retry" spaces the calls of a model after failed ones; a
// key left out stays 0, the engine's default.
func TestReadModelsRetry(t *testing.T) {
	cases := []struct {
		name        string
		src         string
		delay, most time.Duration
	}{
		{"both", `{"orchestrator": {"retry": {"delay": "2s", "maxDelay": "30s"}}}`, 2 * time.Second, 30 * time.Second},
		{"delay only", `{"orchestrator": {"retry": {"delay": "500ms"}}}`, 500 * time.Millisecond, 0},
		{"left out", `{"orchestrator": {}}`, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ReadModels("t.json", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if m.RetryDelay != tc.delay || m.RetryMaxDelay != tc.most {
				t.Fatalf("retry %s up to %s, want %s up to %s", m.RetryDelay, m.RetryMaxDelay, tc.delay, tc.most)
			}
		})
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
		{"latency not a duration", `{"models": {"a": {"baseUrl": "http://h", "model": "m", "latency": "soon"}}}`, "models.a.latency: want a positive duration"},
		{"latency zero", `{"models": {"a": {"baseUrl": "http://h", "model": "m", "latency": "0s"}}}`, "models.a.latency: want a positive duration"},
		{"latency negative", `{"models": {"a": {"baseUrl": "http://h", "model": "m", "latency": "-3s"}}}`, "models.a.latency: want a positive duration"},
		{"latency as a number", `{"models": {"a": {"baseUrl": "http://h", "model": "m", "latency": 22}}}`, "models.a.latency: want a string"},
		{"latency too long", `{"models": {"a": {"baseUrl": "http://h", "model": "m", "latency": "2h"}}}`, "models.a.latency: want at most 1h0m0s, got 2h0m0s"},
		{"turns too many", `{"orchestrator": {"maxTurns": 51}}`, "want 1 to 50"},
		{"drop search not a boolean", `{"orchestrator": {"dropSearchWithDocuments": "yes"}}`, "orchestrator.dropSearchWithDocuments: want true or false"},
		{"unknown variant", `{"orchestrator": {"variant": "gaia"}}`, `orchestrator.variant: research variant "gaia": want "hle" or "frames"`},
		{"variant not a string", `{"orchestrator": {"variant": 2}}`, "orchestrator.variant: want a string"},
		{"not an object", `{"models": []}`, "models: want an object"},
		{"ftp url", `{"orchestrator": {"baseUrl": "ftp://h"}}`, "not an http(s) URL"},
		{"sampling with a price", `{"models": {"c": {"sampling": true, "priceIn": 1}}}`, `"priceIn" cannot be combined with "sampling": true`},
		{"sampling with a URL", `{"models": {"c": {"sampling": true, "baseUrl": "http://h"}}}`, "reached through MCP sampling"},
		{"sampling not a boolean", `{"models": {"c": {"sampling": "yes"}}}`, "models.c.sampling: want true or false"},
		{"sampling orchestrator", `{"orchestrator": {"sampling": true}}`, "sampling applies to entries of \"models\""},
		{"launch without command", `{"orchestrator": {"launch": {"health": "http://127.0.0.1:8000/health"}}}`, "orchestrator.launch: command is required"},
		{"launch empty command", `{"orchestrator": {"launch": {"command": []}}}`, "want the program and its arguments"},
		{"launch bad health", `{"orchestrator": {"launch": {"command": ["vllm"], "health": "localhost:8000"}}}`, "want an http:// or https:// URL"},
		{"launch bad timeout", `{"orchestrator": {"launch": {"command": ["vllm"], "startTimeout": "forever"}}}`, "positive duration"},
		{"retry not an object", `{"orchestrator": {"retry": "1s"}}`, "orchestrator.retry: want an object"},
		{"retry bad delay", `{"orchestrator": {"retry": {"delay": "soon"}}}`, "orchestrator.retry.delay: want a positive duration"},
		{"retry delay too long", `{"orchestrator": {"retry": {"maxDelay": "2h"}}}`, "orchestrator.retry.maxDelay: want at most 1h0m0s"},
		{"retry cap below delay", `{"orchestrator": {"retry": {"delay": "10s", "maxDelay": "1s"}}}`, "maxDelay 1s is shorter than delay 10s"},
		{"retry unknown key", `{"orchestrator": {"retry": {"dely": "1s"}}}`, `unknown key "dely" (did you mean "delay"?)`},
		{"launch unknown key", `{"orchestrator": {"launch": {"command": ["vllm"], "helth": "x"}}}`, `unknown key "helth" (did you mean "health"?)`},
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
	f.Add(`{"models": {"c": {"sampling": true, "roles": ["answer"]}}}`)
	f.Add(`{"orchestrator": {"launch": {"command": ["llama-server", "--jinja"], "startTimeout": "1m"}}}`)
	f.Fuzz(func(t *testing.T, src string) {
		m, err := ReadModels("f.json", []byte(src))
		if err == nil {
			for _, ep := range m.Endpoints {
				if ep.Sampling {
					if ep.ModelID == "" || ep.BaseURL != "" || ep.PriceIn != 0 || ep.PriceOut != 0 {
						t.Fatalf("accepted a bad sampling endpoint: %+v", ep)
					}
					continue
				}
				if ep.Validate() != nil {
					t.Fatalf("accepted an invalid endpoint: %+v", ep)
				}
			}
		}
	})
}

func TestReadModelsSamplingEntry(t *testing.T) {
	cases := []struct {
		name         string
		src          string
		wantModel    string
		wantLocality hub.Locality
	}{
		{"defaults", `{"models": {"client": {"sampling": true, "roles": ["answer"]}}}`, SamplingModelID, hub.LocalityRemote},
		{"marked local with a hint", `{"models": {"client": {"sampling": true, "model": "claude-sonnet", "locality": "local"}}}`,
			"claude-sonnet", hub.LocalityLocal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ReadModels("t.json", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			ep := m.Endpoints[0]
			if !ep.Sampling || ep.ModelID != tc.wantModel || ep.Locality != tc.wantLocality || ep.BaseURL != "" {
				t.Fatalf("endpoint %+v", ep)
			}
			if ep.PriceIn != 0 || ep.PriceOut != 0 {
				t.Fatalf("a sampling endpoint got prices %v/%v; its cost is unknown", ep.PriceIn, ep.PriceOut)
			}
		})
	}
}

func TestReadModelsLaunch(t *testing.T) {
	cases := []struct {
		name        string
		src         string
		wantHealth  string
		wantTimeout time.Duration
	}{
		{"health from the base URL", `{"orchestrator": {"launch": {"command": ["vllm", "serve", "m"]}}}`,
			"http://127.0.0.1:8000/health", DefaultStartTimeout},
		{"base URL after launch", `{"orchestrator": {"launch": {"command": ["llama-server"]}, "baseUrl": "http://127.0.0.1:8080/v1"}}`,
			"http://127.0.0.1:8080/health", DefaultStartTimeout},
		{"ollama root and timeout", `{"orchestrator": {"launch": {"command": ["ollama", "serve"], "health": "http://127.0.0.1:11434/",
			"startTimeout": "5m", "env": {"OLLAMA_CONTEXT_LENGTH": "32768"}}}}`, "http://127.0.0.1:11434/", 5 * time.Minute},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ReadModels("t.json", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if m.Launch == nil || m.Launch.Health != tc.wantHealth || m.Launch.StartTimeout != tc.wantTimeout || len(m.Launch.Command) == 0 {
				t.Fatalf("launch %+v", m.Launch)
			}
		})
	}
	m, err := ReadModels("t.json", []byte(`{}`))
	if err != nil || m.Launch != nil {
		t.Fatalf("no launch block: %+v, %v", m.Launch, err)
	}
}

func TestLaunchExpandedEnv(t *testing.T) {
	lookup := func(name string) (string, bool) {
		if name == "HF_TOKEN" {
			return "hf-secret", true
		}
		return "", false
	}
	cases := []struct {
		name    string
		env     map[string]string
		want    map[string]string
		wantErr string
	}{
		{"references and defaults", map[string]string{"HF_TOKEN": "${HF_TOKEN}", "CUDA_VISIBLE_DEVICES": "${GPU:-0}", "X": "plain"},
			map[string]string{"HF_TOKEN": "hf-secret", "CUDA_VISIBLE_DEVICES": "0", "X": "plain"}, ""},
		{"unset", map[string]string{"K": "${MISSING}"}, nil, "orchestrator.launch.env.K: environment variable MISSING is not set"},
		{"malformed", map[string]string{"K": "${OPEN"}, nil, "unterminated"},
		{"secret", map[string]string{"HF_TOKEN": "${keychain:orchestrator.HF_TOKEN}"}, map[string]string{"HF_TOKEN": "hf-from-store"}, ""},
		{"secret not set", map[string]string{"K": "${keychain:orchestrator.K}"}, nil,
			`orchestrator.launch.env.K: secret "orchestrator.K" is not set: run toolhub config set-secret orchestrator K`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store := fakeSecrets{"orchestrator.HF_TOKEN": "hf-from-store"}
			got, err := (&Launch{Env: tc.env}).ExpandedEnvFrom(Lookup{Env: lookup, Secrets: store})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "hf-secret") {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("got %v, %v", got, err)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// An answer model without answerStyle is asked as the reference asks its
// family: tagged for GPT-5 and Llama-3.3-70B, boxed otherwise; a style
// written in the config wins.
func TestReadModelsAnswerStyleFollowsTheFamily(t *testing.T) {
	src := `{"models": {
    "gpt5":  {"baseUrl": "https://api.openai.com/v1", "model": "gpt-5", "roles": ["answer"]},
    "llama": {"baseUrl": "https://api.together.xyz/v1", "model": "meta-llama/Llama-3.3-70B-Instruct-Turbo", "roles": ["answer"]},
    "qwen":  {"baseUrl": "http://127.0.0.1:8080/v1", "model": "Qwen/Qwen3-32B", "roles": ["answer"]},
    "other": {"baseUrl": "http://127.0.0.1:8081/v1", "model": "acme-7b", "roles": ["answer"]},
    "boxedgpt": {"baseUrl": "https://api.openai.com/v1", "model": "gpt-5-mini", "roles": ["answer"], "answerStyle": "boxed"},
    "searcher": {"baseUrl": "https://api.openai.com/v1", "model": "gpt-5", "roles": ["search"]}}}`
	m, err := ReadModels("t.jsonc", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"gpt5": "tagged", "llama": "tagged", "qwen": "boxed", "other": "boxed", "boxedgpt": "boxed", "searcher": ""}
	for _, ep := range m.Endpoints {
		if ep.AnswerStyle != want[ep.Name] {
			t.Errorf("%s: answer style %q, want %q", ep.Name, ep.AnswerStyle, want[ep.Name])
		}
	}
}

// "policy" and "fallback" name policies toolhub has; the orchestrator
// cannot be its own fallback. A bad name is reported at its value.
func TestReadModelsPolicyNames(t *testing.T) {
	tests := []struct {
		name, src    string
		policy, fall string
		wantProblem  string // "" for none
	}{
		{name: "defaults", src: `{"orchestrator": {"policy": "", "fallback": ""}}`},
		{name: "known names", src: `{"orchestrator": {"policy": "orchestrator:frames", "fallback": "mf:/tmp/r.json"}}`,
			policy: "orchestrator:frames", fall: "mf:/tmp/r.json"},
		{name: "a fixed model", src: `{"orchestrator": {"policy": "fixed:gpt-5", "fallback": "cheapest"}}`,
			policy: "fixed:gpt-5", fall: "cheapest"},
		{name: "an unknown policy", src: `{"orchestrator": {"policy": "bogus"}}`,
			wantProblem: `t.json:1:29: orchestrator.policy: unknown policy "bogus"`},
		{name: "an unknown variant", src: `{"orchestrator": {"policy": "orchestrator:gaia"}}`,
			wantProblem: `t.json:1:29: orchestrator.policy: policy orchestrator:gaia: want orchestrator:hle or orchestrator:frames`},
		{name: "the orchestrator as its own fallback", src: `{"orchestrator": {"fallback": "orchestrator"}}`,
			wantProblem: `t.json:1:31: orchestrator.fallback: policy "orchestrator" needs the orchestrator`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ReadModels("t.json", []byte(tc.src))
			if tc.wantProblem != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantProblem) {
					t.Fatalf("err %v, want %q", err, tc.wantProblem)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Policy != tc.policy || m.Fallback != tc.fall {
				t.Errorf("policy %q fallback %q, want %q and %q", m.Policy, m.Fallback, tc.policy, tc.fall)
			}
		})
	}
}
