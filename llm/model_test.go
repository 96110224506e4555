package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeChat is a hand-written chat completions endpoint that records what
// it received and answers with body.
type fakeChat struct {
	mu     sync.Mutex
	bodies []string
	auth   []string
	status int
	body   string
}

func (f *fakeChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.bodies = append(f.bodies, string(b))
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	status, body := f.status, f.body
	f.mu.Unlock()
	if r.URL.Path != "/v1/chat/completions" {
		status = http.StatusNotFound
	}
	w.Header().Set("Content-Type", "application/json")
	if status != 0 {
		w.WriteHeader(status)
	}
	_, _ = io.WriteString(w, body)
}

func startFakeChat(t *testing.T, f *fakeChat) string {
	t.Helper()
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	return ts.URL + "/v1"
}

const replyWithUsage = `{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}`

func newTestModel(t *testing.T, url string, env map[string]string) *Model {
	t.Helper()
	models, err := NewModels([]ModelEndpoint{{Name: "m", BaseURL: url, ModelID: "x", APIKeyEnv: "TEST_KEY", PriceIn: 1, PriceOut: 2}},
		ModelOptions{Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := models.Get("m")
	return m
}

func TestModelCompleteSendsBodyVerbatim(t *testing.T) {
	f := &fakeChat{body: replyWithUsage}
	m := newTestModel(t, startFakeChat(t, f), map[string]string{"TEST_KEY": "sk-test"})
	body := `{"model":"x","messages":[{"role":"user","content":"<think>"}],"tools":[{"type":"function","function":{"name":"a","parameters":{"z":1,"a":2}}}],"parallel_tool_calls":true}`
	reply, err := m.Complete(context.Background(), []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if f.bodies[0] != body {
		t.Fatalf("sent %s\nwant %s", f.bodies[0], body)
	}
	if f.auth[0] != "Bearer sk-test" {
		t.Fatalf("authorization %q", f.auth[0])
	}
	if reply.TokensIn != 12 || reply.TokensOut != 3 || reply.Estimated || reply.Content != "hi" {
		t.Fatalf("reply %+v", reply)
	}
	if info := m.Info(); info.Calls != 1 {
		t.Fatalf("calls %d", info.Calls)
	}
}

func TestModelCompleteEstimatesMissingUsage(t *testing.T) {
	f := &fakeChat{body: `{"choices":[{"message":{"role":"assistant","content":"abcdefg"}}]}`}
	m := newTestModel(t, startFakeChat(t, f), nil)
	reply, err := m.Complete(context.Background(), []byte(`{"model":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	// 13 request bytes and 7 content characters at 3 characters per token.
	if !reply.Estimated || reply.TokensIn != 5 || reply.TokensOut != 3 {
		t.Fatalf("reply %+v", reply)
	}
}

func TestModelCompleteErrors(t *testing.T) {
	f := &fakeChat{status: 500, body: `{"error":{"message":"boom"}}`}
	url500 := startFakeChat(t, f)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL + "/v1"
	closed.Close()
	cases := []struct {
		name        string
		url         string
		unreachable bool
	}{
		{"http 500", url500, false},
		{"connection refused", closedURL, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newTestModel(t, tc.url, nil).Complete(context.Background(), []byte(`{}`))
			var u *ModelUnreachableError
			if err == nil || errors.As(err, &u) != tc.unreachable {
				t.Fatalf("err %v, unreachable want %v", err, tc.unreachable)
			}
		})
	}
}

func TestModelEndpointValidate(t *testing.T) {
	cases := []struct {
		name string
		ep   ModelEndpoint
		want string
	}{
		{"ok", ModelEndpoint{Name: "a", BaseURL: "http://h/v1", ModelID: "m"}, ""},
		{"no name", ModelEndpoint{BaseURL: "http://h/v1", ModelID: "m"}, "no name"},
		{"no id", ModelEndpoint{Name: "a", BaseURL: "http://h/v1"}, "no model id"},
		{"bad url", ModelEndpoint{Name: "a", BaseURL: "ftp://h", ModelID: "m"}, "not an http"},
		{"negative price", ModelEndpoint{Name: "a", BaseURL: "http://h", ModelID: "m", PriceIn: -1}, "negative"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.ep.Validate()
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := NewModels([]ModelEndpoint{cases[0].ep, cases[0].ep}, ModelOptions{}); err == nil {
		t.Fatal("duplicate names accepted")
	}
}

func TestReplaceKeepsUnchangedModels(t *testing.T) {
	a := ModelEndpoint{Name: "a", BaseURL: "http://127.0.0.1:1/v1", ModelID: "x"}
	b := ModelEndpoint{Name: "b", BaseURL: "http://127.0.0.1:2/v1", ModelID: "y"}
	r, err := NewModels([]ModelEndpoint{a, b}, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	oldA, _ := r.Get("a")
	oldB, _ := r.Get("b")
	b2 := b
	b2.BaseURL = "http://127.0.0.1:3/v1"
	c := ModelEndpoint{Name: "c", BaseURL: "http://127.0.0.1:4/v1", ModelID: "z"}
	if err := r.Replace([]ModelEndpoint{a, b2, c}); err != nil {
		t.Fatal(err)
	}
	if m, _ := r.Get("a"); m != oldA {
		t.Error("an unchanged endpoint lost its model")
	}
	if m, _ := r.Get("b"); m == oldB || m.Endpoint().BaseURL != b2.BaseURL {
		t.Error("a changed endpoint kept its old model")
	}
	if _, ok := r.Get("c"); !ok {
		t.Error("a new endpoint is missing")
	}
	if err := r.Replace([]ModelEndpoint{a, a}); err == nil {
		t.Fatal("a name used twice was accepted")
	}
	if got := len(r.List()); got != 3 {
		t.Fatalf("a refused replace changed the registry: %d models", got)
	}
	if err := r.Replace([]ModelEndpoint{c}); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Get("a"); ok {
		t.Error("a removed endpoint is still there")
	}
}
