package scriptedmodel

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
)

// DefaultModel is the id /v1/models reports unless SetModel changes it.
const DefaultModel = "orchestrator-8b"

// Handler serves the scripted endpoints:
//
//	POST /v1/chat/completions  the next reply (streamed when "stream": true)
//	GET  /v1/models            one model
//	GET  /health               200, or 503 while loading
//	POST /tokenize             an estimated token count
type Handler struct {
	mu           sync.Mutex
	script       []Reply
	next         int
	loop         bool
	requests     [][]byte
	tokenizes    [][]byte
	loading      bool
	loadingTurns int
	loadingChats int
	model        string
	mux          *http.ServeMux
	closing      chan struct{}
	closeOnce    sync.Once
}

// NewHandler returns a handler that replays script in order.
func NewHandler(script ...Reply) *Handler {
	h := &Handler{script: append([]Reply(nil), script...), model: DefaultModel, closing: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", h.serveChat)
	mux.HandleFunc("GET /v1/models", h.serveModels)
	mux.HandleFunc("GET /health", h.serveHealth)
	mux.HandleFunc("POST /tokenize", h.serveTokenize)
	mux.HandleFunc("/", serveNoRoute)
	h.mux = mux
	return h
}

// knownPaths are the routes that exist for some method.
var knownPaths = map[string]bool{"/v1/chat/completions": true, "/v1/models": true, "/health": true, "/tokenize": true}

// serveNoRoute answers 405 for a known path with the wrong method, else 404,
// with an OpenAI-style error body.
func serveNoRoute(w http.ResponseWriter, r *http.Request) {
	status := http.StatusNotFound
	if knownPaths[r.URL.Path] {
		status = http.StatusMethodNotAllowed
	}
	writeError(w, status, fmt.Sprintf("no route for %s %s", r.Method, r.URL.Path))
}

// Shutdown releases replies still held back by a delay; later delayed
// replies are not sent.
func (h *Handler) Shutdown() { h.closeOnce.Do(func() { close(h.closing) }) }

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// Append adds replies to the end of the script.
func (h *Handler) Append(replies ...Reply) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.script = append(h.script, replies...)
}

// SetLoop makes the script start over when it runs out instead of
// answering 500.
func (h *Handler) SetLoop(loop bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.loop = loop
}

// SetLoading makes /health and /v1/chat/completions answer 503 until it is
// called with false.
func (h *Handler) SetLoading(loading bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.loading = loading
}

// LoadingFor makes the next n /health checks answer 503; chat completions
// answer 503 until those checks are spent.
func (h *Handler) LoadingFor(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.loadingTurns = n
}

// LoadingForChats makes the next n chat completions answer 503 "Loading
// model", as a server does while it loads the weights; /health is not
// affected.
func (h *Handler) LoadingForChats(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.loadingChats = n
}

// SetModel changes the model id of /v1/models and of completions.
func (h *Handler) SetModel(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.model = id
}

// Requests returns a copy of every chat completion request body, in order.
func (h *Handler) Requests() [][]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([][]byte, len(h.requests))
	for i, r := range h.requests {
		out[i] = append([]byte(nil), r...)
	}
	return out
}

// TokenizeRequests returns a copy of every /tokenize request body, in
// order.
func (h *Handler) TokenizeRequests() [][]byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([][]byte, len(h.tokenizes))
	for i, r := range h.tokenizes {
		out[i] = append([]byte(nil), r...)
	}
	return out
}

// Remaining reports how many scripted replies have not been served.
func (h *Handler) Remaining() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.script) - h.next
}

// record stores a request body and takes the next reply; ok is false when
// the script is exhausted. n counts completions from 1, for ids.
func (h *Handler) record(body []byte) (reply Reply, n int, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.requests = append(h.requests, body)
	if h.next == len(h.script) && h.loop && len(h.script) > 0 {
		h.next = 0
	}
	if h.next == len(h.script) {
		return Reply{}, len(h.requests), false
	}
	reply = h.script[h.next]
	h.next++
	return reply, len(h.requests), true
}

// isLoading reports the loading state; a health check spends one of the
// LoadingFor checks.
func (h *Handler) isLoading(healthCheck bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.loading {
		return true
	}
	if !healthCheck && h.loadingChats > 0 {
		h.loadingChats--
		return true
	}
	if h.loadingTurns > 0 {
		if healthCheck {
			h.loadingTurns--
		}
		return true
	}
	return false
}

func (h *Handler) modelID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.model
}

// Server is a Handler on a loopback test listener.
type Server struct {
	*Handler
	ts *httptest.Server
}

// New starts a server replaying script. Close it when done.
func New(script ...Reply) *Server {
	h := NewHandler(script...)
	return &Server{Handler: h, ts: httptest.NewServer(h)}
}

// URL is the server root, e.g. http://127.0.0.1:41234; the OpenAI base URL
// is URL()+"/v1".
func (s *Server) URL() string { return s.ts.URL }

// Close stops the server: delayed replies are dropped, then it waits for
// running requests.
func (s *Server) Close() {
	s.Shutdown()
	s.ts.Close()
}
