package llm

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolhub/toolhub/hub"
)

// fakeTokenServer answers /tokenize as one kind of server does and
// records the bodies it was sent. Every word is one token.
type fakeTokenServer struct {
	kind string // "vllm", "llama", "none" (404, as Ollama), "down" (500)

	mu     sync.Mutex
	bodies []map[string]any
	paths  []string
	auth   []string
}

func (f *fakeTokenServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	f.bodies, f.paths, f.auth = append(f.bodies, body), append(f.paths, r.URL.Path), append(f.auth, r.Header.Get("Authorization"))
	kind := f.kind
	f.mu.Unlock()
	if r.URL.Path != "/tokenize" || kind == "none" {
		http.NotFound(w, r)
		return
	}
	tokens := func(text any) []int {
		s, _ := text.(string)
		return make([]int, len(strings.Fields(s)))
	}
	switch kind {
	case "vllm":
		if _, ok := body["prompt"]; !ok {
			http.Error(w, `{"object":"error","message":"prompt: field required"}`, http.StatusBadRequest)
			return
		}
		t := tokens(body["prompt"])
		_ = json.NewEncoder(w).Encode(map[string]any{"count": len(t), "max_model_len": 32768, "tokens": t})
	case "llama":
		// llama-server reads "content" alone; without it the list is empty.
		_ = json.NewEncoder(w).Encode(map[string]any{"tokens": tokens(body["content"])})
	default:
		http.Error(w, "boom", http.StatusInternalServerError)
	}
}

func (f *fakeTokenServer) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

func (f *fakeTokenServer) setKind(kind string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.kind = kind
}

// clock is a hand-moved time source.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// estimate is the fallback in these tests: one token per byte, so that it
// never agrees with the servers' one per word.
func estimate(text string) int { return len(text) }

func newTestTokenizer(t *testing.T, srv *fakeTokenServer, ep ModelEndpoint) (*Tokenizer, *clock) {
	t.Helper()
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	if ep.Name == "" {
		ep.Name, ep.ModelID = "orch", "nvidia/Nemotron-Orchestrator-8B"
	}
	if ep.Locality == "" {
		ep.Locality = hub.LocalityLocal
	}
	if ep.BaseURL == "" && !ep.Sampling {
		ep.BaseURL = ts.URL + "/v1/"
	}
	models, err := NewModels([]ModelEndpoint{ep}, ModelOptions{Getenv: func(string) string { return "sekret" }})
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	return NewTokenizer(models, ep.Name, TokenizerOptions{Estimate: estimate, Now: c.now}), c
}

func TestTokenizerCountsWithTheServer(t *testing.T) {
	for _, tc := range []struct {
		kind     string
		requests int // for two counts of one text and one of another
		estimate bool
	}{
		{"vllm", 2, false},
		{"llama", 3, false}, // the vLLM shape once, then llama-server's for each text
		{"none", 2, true},   // both shapes once, never again
		{"down", 1, true},   // once, then the estimate until the retry time
	} {
		t.Run(tc.kind, func(t *testing.T) {
			srv := &fakeTokenServer{kind: tc.kind}
			tok, _ := newTestTokenizer(t, srv, ModelEndpoint{APIKeyEnv: "KEY"})
			text, other := "three word text", "two words"
			want, wantOther := 3, 2
			if tc.estimate {
				want, wantOther = len(text), len(other)
			}
			for range 2 {
				if got := tok.Count(text); got != want {
					t.Fatalf("Count = %d, want %d", got, want)
				}
			}
			if got := tok.Count(other); got != wantOther {
				t.Fatalf("Count(other) = %d, want %d", got, wantOther)
			}
			if got := srv.requests(); got != tc.requests {
				t.Fatalf("%d requests, want %d", got, tc.requests)
			}
			if srv.paths[0] != "/tokenize" || srv.auth[0] != "Bearer sekret" {
				t.Fatalf("asked %s with %q", srv.paths[0], srv.auth[0])
			}
			first := srv.bodies[0]
			if first["prompt"] != text || first["model"] != "nvidia/Nemotron-Orchestrator-8B" || first["add_special_tokens"] != false {
				t.Fatalf("first request %v, want vLLM's shape without special tokens", first)
			}
			if tc.kind == "llama" {
				if last := srv.bodies[len(srv.bodies)-1]; last["content"] != other || last["add_special"] != false {
					t.Fatalf("llama-server request %v", last)
				}
			}
		})
	}
}

func TestTokenizerAsksAgainAfterAFailure(t *testing.T) {
	srv := &fakeTokenServer{kind: "down"}
	tok, clk := newTestTokenizer(t, srv, ModelEndpoint{})
	if got := tok.Count("a b"); got != 3 {
		t.Fatalf("Count while down = %d, want the estimate 3", got)
	}
	srv.setKind("vllm")
	clk.add(DefaultTokenizeRetry - time.Second)
	if got := tok.Count("a b"); got != 3 || srv.requests() != 1 {
		t.Fatalf("Count before the retry time = %d after %d requests, want the estimate without asking", got, srv.requests())
	}
	clk.add(time.Second)
	if got := tok.Count("a b"); got != 2 || srv.requests() != 2 {
		t.Fatalf("Count at the retry time = %d after %d requests, want the server's 2", got, srv.requests())
	}
}

func TestTokenizerWithoutAServer(t *testing.T) {
	srv := &fakeTokenServer{kind: "vllm"}
	for _, tc := range []struct {
		name string
		tok  *Tokenizer
	}{
		{"sampling endpoint", func() *Tokenizer {
			tok, _ := newTestTokenizer(t, srv, ModelEndpoint{Name: "s", ModelID: "client", Sampling: true})
			return tok
		}()},
		{"unknown model", NewTokenizer(&Models{}, "gone", TokenizerOptions{Estimate: estimate})},
		{"remote endpoint", func() *Tokenizer { // what it counts must not leave the machine
			tok, _ := newTestTokenizer(t, srv, ModelEndpoint{Name: "r", ModelID: "m", Locality: hub.LocalityRemote})
			return tok
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.tok.Count("a b c"); got != 5 {
				t.Fatalf("Count = %d, want the estimate", got)
			}
			if got := tc.tok.Count(""); got != 0 {
				t.Fatalf("Count(\"\") = %d", got)
			}
		})
	}
	if srv.requests() != 0 {
		t.Fatalf("%d requests reached a server", srv.requests())
	}
}

// A reload that moves the endpoint forgets what was learnt of the old one.
func TestTokenizerFollowsAReload(t *testing.T) {
	old := &fakeTokenServer{kind: "none"}
	tok, _ := newTestTokenizer(t, old, ModelEndpoint{})
	if got := tok.Count("a b"); got != 3 {
		t.Fatalf("Count on a server without /tokenize = %d", got)
	}
	moved := &fakeTokenServer{kind: "vllm"}
	ts := httptest.NewServer(moved)
	defer ts.Close()
	if err := tok.models.Replace([]ModelEndpoint{{Name: "orch", ModelID: "m", BaseURL: ts.URL + "/v1", Locality: hub.LocalityLocal}}); err != nil {
		t.Fatal(err)
	}
	if got := tok.Count("a b"); got != 2 || moved.requests() != 1 {
		t.Fatalf("Count after the move = %d with %d requests, want the new server's", got, moved.requests())
	}
}

func TestTokenizeURL(t *testing.T) {
	for base, want := range map[string]string{
		"http://127.0.0.1:8000/v1":      "http://127.0.0.1:8000/tokenize",
		"http://127.0.0.1:8000/v1/":     "http://127.0.0.1:8000/tokenize",
		"http://host/api/openai/v1":     "http://host/api/openai/tokenize",
		"http://127.0.0.1:8080":         "http://127.0.0.1:8080/tokenize",
		"https://example.com/llama/v1/": "https://example.com/llama/tokenize",
	} {
		if got := tokenizeURL(base); got != want {
			t.Errorf("tokenizeURL(%q) = %q, want %q", base, got, want)
		}
	}
}

func FuzzTokenizeReply(f *testing.F) {
	for _, seed := range []string{`{"count":3,"tokens":[1,2,3]}`, `{"tokens":[{"id":1,"piece":"a"}]}`, `{"count":-1}`, `{"tokens":null}`, `[]`, `nul`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, answer []byte) {
		for _, shape := range []tokenizeShape{shapeVLLM, shapeLlama} {
			n, err := readTokenizeReply(answer, shape)
			if err == nil && n < 0 {
				t.Fatalf("%s answer %q read as %d tokens", shape, answer, n)
			}
		}
	})
}

// A server that counted before and then refuses a text is asked again
// after the retry time, not given up on.
func TestTokenizerKeepsAServerThatRefusesOnce(t *testing.T) {
	srv := &fakeTokenServer{kind: "vllm"}
	tok, clk := newTestTokenizer(t, srv, ModelEndpoint{})
	if got := tok.Count("a b"); got != 2 {
		t.Fatalf("Count = %d", got)
	}
	srv.setKind("none")
	if got := tok.Count("c d e"); got != 5 {
		t.Fatalf("Count on a refusal = %d, want the estimate", got)
	}
	srv.setKind("vllm")
	clk.add(DefaultTokenizeRetry)
	if got := tok.Count("c d e"); got != 3 {
		t.Fatalf("Count after the retry time = %d, want the server's 3", got)
	}
}

func TestTokenizerCounting(t *testing.T) {
	for _, tc := range []struct {
		kind, server, why string
		ep                ModelEndpoint
	}{
		{kind: "vllm", server: "vllm"},
		{kind: "llama", server: "llama-server"},
		{kind: "none", why: "no /tokenize"},
		{kind: "down", why: "did not answer"},
		{kind: "vllm", why: "remote endpoint", ep: ModelEndpoint{Name: "r", ModelID: "m", Locality: hub.LocalityRemote}},
	} {
		t.Run(tc.kind+" "+string(tc.ep.Locality), func(t *testing.T) {
			tok, _ := newTestTokenizer(t, &fakeTokenServer{kind: tc.kind}, tc.ep)
			server, why := tok.Counting()
			if server != tc.server || !strings.Contains(why, tc.why) || (tc.why == "") != (why == "") {
				t.Fatalf("Counting() = %q, %q; want %q and a reason with %q", server, why, tc.server, tc.why)
			}
		})
	}
}
