package conductor

import (
	"io"
	"net/http"
	"net/http/httptest"
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
