package llm

import (
	"context"
	"errors"
	"hash/maphash"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/toolhub/toolhub/hub"
)

// Defaults of TokenizerOptions.
const (
	DefaultTokenizeTimeout = 5 * time.Second
	DefaultTokenizeRetry   = 30 * time.Second
	tokenizeCacheEntries   = 4096
)

// TokenizerOptions configure a Tokenizer.
type TokenizerOptions struct {
	// Estimate counts a text the backend cannot count: an endpoint without
	// /tokenize, one that is down, a sampling endpoint. Required.
	Estimate func(text string) int
	// Timeout bounds one /tokenize request (default 5 s).
	Timeout time.Duration
	// Retry is how long the estimate stands in after a request failed
	// (a timeout, a 5xx, a refused connection) before the backend is
	// asked again (default 30 s).
	Retry  time.Duration
	Logger *slog.Logger
	Now    func() time.Time // nil: time.Now
}

// Tokenizer counts tokens with the tokenizer of the local server behind one
// configured endpoint (POST /tokenize beside its /v1 root: vLLM's request
// shape first, then llama-server's), which is how the reference counts
// the orchestrator's prompt budgets (Qwen3-8B's tokenizer). A remote
// endpoint, a server without /tokenize, or one that cannot be reached, is
// counted by the estimate. Counts are cached per text. It is safe for
// concurrent use.
type Tokenizer struct {
	models *Models
	name   string
	opts   TokenizerOptions
	seed   maphash.Seed

	mu      sync.Mutex
	url     string // the /tokenize URL the fields below are about
	shape   tokenizeShape
	retryAt time.Time
	failed  bool // the last request failed (logged once per failure streak)
	cache   map[uint64]int
}

// NewTokenizer returns a Tokenizer for the endpoint called name in models,
// looked up at every count so that a config reload is followed.
func NewTokenizer(models *Models, name string, opts TokenizerOptions) *Tokenizer {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTokenizeTimeout
	}
	if opts.Retry <= 0 {
		opts.Retry = DefaultTokenizeRetry
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Tokenizer{models: models, name: name, opts: opts, seed: maphash.MakeSeed()}
}

// countsLocally reports whether the endpoint's server may count a text:
// only one on this machine, since a text counted may hold documents that
// must not leave it (a cut made for a local fallback under local-only,
// say), and not one reached through the calling client (sampling).
func (m *Model) countsLocally() bool {
	return !m.endpoint.Sampling && m.endpoint.BaseURL != "" && m.endpoint.Locality == hub.LocalityLocal
}

// tokenizeURL is the /tokenize path beside an OpenAI-compatible /v1 root
// (vLLM and llama-server serve it at the server's root).
func tokenizeURL(base string) string {
	base = strings.TrimRight(base, "/")
	return strings.TrimSuffix(base, "/v1") + "/tokenize"
}

// Count returns text's token count by the backend's tokenizer, or the
// estimate where the backend cannot say.
func (t *Tokenizer) Count(text string) int {
	if text == "" {
		return 0
	}
	m, ok := t.models.Get(t.name)
	if !ok || !m.countsLocally() {
		return t.opts.Estimate(text)
	}
	url := tokenizeURL(m.endpoint.BaseURL)
	key := maphash.String(t.seed, text)
	shape, look := t.lookup(url, key)
	if look.hit {
		return look.count
	}
	if !look.ask {
		return t.opts.Estimate(text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), t.opts.Timeout)
	defer cancel()
	n, got, err := m.tokenize(ctx, url, text, shape)
	t.settle(url, key, n, got, err)
	if err != nil {
		return t.opts.Estimate(text)
	}
	return n
}

// looked is what lookup found: a cached count, or whether to ask.
type looked struct {
	count int
	hit   bool // count is the server's, from the cache
	ask   bool // the server may be asked now
}

// lookup reads the cache and whether the backend may be asked now.
func (t *Tokenizer) lookup(url string, key uint64) (tokenizeShape, looked) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.url != url {
		t.url, t.shape, t.retryAt, t.failed, t.cache = url, shapeUnknown, time.Time{}, false, nil
	}
	if n, ok := t.cache[key]; ok {
		return t.shape, looked{count: n, hit: true}
	}
	return t.shape, looked{ask: t.shape != shapeNone && !t.opts.Now().Before(t.retryAt)}
}

// settle records a request's outcome: the shape that worked and the
// count, or when to ask again.
func (t *Tokenizer) settle(url string, key uint64, n int, shape tokenizeShape, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.url != url {
		return // the endpoint moved while the request was out
	}
	log := t.opts.Logger.With("model", t.name, "url", url)
	switch {
	case errors.Is(err, errNoTokenizer):
		t.shape = shapeNone
		log.Info("the model's server has no /tokenize; prompt cuts use the token estimate", "reason", err)
	case err != nil:
		t.retryAt = t.opts.Now().Add(t.opts.Retry)
		if !t.failed {
			level := slog.LevelInfo // the server may not be up yet
			if t.shape != shapeUnknown {
				level = slog.LevelWarn // it counted before
			}
			log.Log(context.Background(), level, "counting tokens with /tokenize failed; the estimate stands in for a while",
				"err", err, "retry", t.opts.Retry)
		}
		t.failed = true
	default:
		if t.shape != shape {
			log.Info("prompt cuts count tokens with the server's /tokenize", "shape", shape.String())
		}
		t.shape, t.failed = shape, false
		if len(t.cache) >= tokenizeCacheEntries || t.cache == nil {
			t.cache = make(map[uint64]int, 64)
		}
		t.cache[key] = n
	}
}

// Counting says how t counts texts, asking the server once when it has not
// been asked yet: by the server's /tokenize (server names the request shape,
// "vllm" or "llama-server"), or by the estimate (server is empty, why says
// why).
func (t *Tokenizer) Counting() (server, why string) {
	m, ok := t.models.Get(t.name)
	switch {
	case !ok:
		return "", "no model named " + t.name
	case m.endpoint.Sampling:
		return "", "a sampling endpoint has no server of its own"
	case !m.countsLocally():
		return "", "a remote endpoint is never sent texts to count"
	}
	t.Count("How many tokens is this?")
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.shape == shapeVLLM || t.shape == shapeLlama:
		return t.shape.String(), ""
	case t.shape == shapeNone:
		return "", "the server has no /tokenize"
	}
	return "", "the server did not answer /tokenize"
}
