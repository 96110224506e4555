package config

import (
	"strings"
	"testing"
	"time"
)

func TestReadBuiltinTools(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want func(*BuiltinTools) bool
	}{
		{"absent sections", `{"mcpServers": {}}`, func(b *BuiltinTools) bool {
			return !b.Python.Disabled && b.Python.Sandbox == SandboxAuto && b.WebSearch == nil
		}},
		{"tavily default key variable", `{"webSearch": {"provider": "tavily"}}`, func(b *BuiltinTools) bool {
			return b.WebSearch.Provider == ProviderTavily && b.WebSearch.APIKeyEnv == "TAVILY_API_KEY"
		}},
		{"brave with its own variable", `{"webSearch": {"provider": "brave", "apiKeyEnv": "MY_BRAVE", "maxResults": 8, "timeout": "5s"}}`,
			func(b *BuiltinTools) bool {
				w := b.WebSearch
				return w.Provider == ProviderBrave && w.APIKeyEnv == "MY_BRAVE" && w.MaxResults == 8 && w.Timeout == 5*time.Second
			}},
		{"python limits", `{"python": {"enabled": true, "maxTimeout": "2m", "memoryMB": 2048, "maxOutputBytes": 1000, "sandbox": "require"}}`,
			func(b *BuiltinTools) bool {
				p := b.Python
				return !p.Disabled && p.MaxTimeout == 2*time.Minute && p.MemoryMB == 2048 && p.MaxOutputBytes == 1000 && p.Sandbox == SandboxRequire
			}},
		{"python off", `{"python": {"enabled": false}}`, func(b *BuiltinTools) bool { return b.Python.Disabled }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadBuiltinTools("t.json", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if !tc.want(b) {
				t.Fatalf("decoded %+v (web search %+v)", b.Python, b.WebSearch)
			}
		})
	}
}

func TestReadBuiltinToolsProblems(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"unknown provider", `{"webSearch": {"provider": "bing"}}`, `t.json:1:28: webSearch.provider: want "tavily" or "brave", got "bing"`},
		{"no provider", `{"webSearch": {}}`, "webSearch: provider is required"},
		{"unknown web key", `{"webSearch": {"provider": "brave", "apiKeyEnvv": "X"}}`, `unknown key "apiKeyEnvv" (did you mean "apiKeyEnv"?)`},
		{"bad sandbox", `{"python": {"sandbox": "docker"}}`, `python.sandbox: want "auto" or "require"`},
		{"negative memory", `{"python": {"memoryMB": -1}}`, "want a whole number >= 0"},
		{"bad timeout", `{"python": {"maxTimeout": "long"}}`, "positive duration"},
		{"unknown python key", `{"python": {"timeout": "1s"}}`, `python: unknown key "timeout"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadBuiltinTools("t.json", []byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func FuzzReadBuiltinTools(f *testing.F) {
	f.Add(`{"webSearch": {"provider": "tavily", "maxResults": 5}, "python": {"memoryMB": 512}}`)
	f.Add(`{"python": {"enabled": false, "sandbox": "auto"}}`)
	f.Fuzz(func(t *testing.T, src string) {
		b, err := ReadBuiltinTools("f.json", []byte(src))
		if err != nil {
			return
		}
		if w := b.WebSearch; w != nil && (defaultKeyEnv[w.Provider] == "" || w.APIKeyEnv == "" || w.MaxResults > 50) {
			t.Fatalf("accepted a bad webSearch section %+v", w)
		}
		if b.Python.Sandbox != SandboxAuto && b.Python.Sandbox != SandboxRequire {
			t.Fatalf("accepted sandbox %q", b.Python.Sandbox)
		}
	})
}
