package retriever

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// EmbedderConfig configures an OpenAI-compatible /v1/embeddings client.
type EmbedderConfig struct {
	// URL is the server's base URL ("http://localhost:11434/v1") or the
	// full embeddings URL; "/v1/embeddings" is appended as needed.
	URL        string
	Model      string
	Dimensions int
	APIKey     string // sent as a bearer token when set; never logged
	BatchSize  int    // inputs per request; default 64
	MaxRetries int    // retries on 429, 5xx and network errors; default 5
	Backoff    time.Duration
	Timeout    time.Duration // per request; default 60 s
	HTTPClient *http.Client
}

// OpenAIEmbedder calls an OpenAI-compatible embeddings endpoint (Ollama,
// llama.cpp, TEI, vLLM, OpenAI...).
type OpenAIEmbedder struct {
	cfg      EmbedderConfig
	endpoint string
}

// NewOpenAIEmbedder checks cfg and returns a client.
func NewOpenAIEmbedder(cfg EmbedderConfig) (*OpenAIEmbedder, error) {
	if cfg.URL == "" || cfg.Model == "" {
		return nil, errors.New("embedder: URL and model are required")
	}
	if cfg.Dimensions <= 0 {
		return nil, fmt.Errorf("embedder %s: dimensions must be set (got %d)", cfg.Model, cfg.Dimensions)
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 64
	}
	if cfg.MaxRetries <= 0 {
		cfg.MaxRetries = 5
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	return &OpenAIEmbedder{cfg: cfg, endpoint: embeddingsURL(cfg.URL)}, nil
}

func embeddingsURL(base string) string {
	base = strings.TrimRight(base, "/")
	switch {
	case strings.HasSuffix(base, "/embeddings"):
		return base
	case strings.HasSuffix(base, "/v1"):
		return base + "/embeddings"
	default:
		return base + "/v1/embeddings"
	}
}

// Endpoint is the embeddings URL, with any credentials in it redacted.
func (e *OpenAIEmbedder) Endpoint() string {
	u, err := url.Parse(e.endpoint)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// once is the same client with no retries, for queries.
func (e *OpenAIEmbedder) once() Embedder {
	c := *e
	c.cfg.MaxRetries = 0
	return &c
}

func (e *OpenAIEmbedder) Model() string   { return e.cfg.Model }
func (e *OpenAIEmbedder) Dimensions() int { return e.cfg.Dimensions }

// Embed embeds texts in batches, adding the model's role prefix and
// normalising the vectors to unit length.
func (e *OpenAIEmbedder) Embed(ctx context.Context, texts []string, role Role) ([][]float32, error) {
	prefix := modelPrefix(e.cfg.Model, role)
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.cfg.BatchSize {
		batch := texts[start:min(start+e.cfg.BatchSize, len(texts))]
		inputs := make([]string, len(batch))
		for i, t := range batch {
			inputs[i] = prefix + t
		}
		vecs, err := e.embedBatch(ctx, inputs)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// embedBatch sends one request, retrying with exponential backoff and
// jitter on 429, 5xx and network errors (honouring Retry-After).
func (e *OpenAIEmbedder) embedBatch(ctx context.Context, inputs []string) ([][]float32, error) {
	body := encodeJSON(embeddingRequest{Model: e.cfg.Model, Input: inputs})
	var lastErr error
	for attempt := 0; attempt <= e.cfg.MaxRetries; attempt++ {
		if attempt > 0 {
			if err := sleepCtx(ctx, e.backoff(attempt, lastErr)); err != nil {
				return nil, fmt.Errorf("embedder %s: %w (last error: %w)", e.cfg.Model, err, lastErr)
			}
		}
		vecs, err := e.post(ctx, body, len(inputs))
		if err == nil {
			return vecs, nil
		}
		var re *retryableError
		if !errors.As(err, &re) || ctx.Err() != nil {
			return nil, err
		}
		lastErr = err
	}
	return nil, fmt.Errorf("embedder %s: giving up after %d attempts: %w", e.cfg.Model, e.cfg.MaxRetries+1, lastErr)
}

// retryableError marks a failure worth another attempt.
type retryableError struct {
	err        error
	retryAfter time.Duration
}

func (e *retryableError) Error() string { return e.err.Error() }
func (e *retryableError) Unwrap() error { return e.err }

func (e *OpenAIEmbedder) backoff(attempt int, last error) time.Duration {
	var re *retryableError
	if errors.As(last, &re) && re.retryAfter > 0 {
		return min(re.retryAfter, 30*time.Second)
	}
	d := e.cfg.Backoff << (attempt - 1)
	return d/2 + rand.N(d/2+1)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type embeddingRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// post sends one request and decodes the answer.
func (e *OpenAIEmbedder) post(ctx context.Context, body []byte, n int) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embedder %s: %w", e.cfg.Model, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.cfg.APIKey)
	}
	resp, err := e.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, &retryableError{err: fmt.Errorf("embedder %s: %w", e.cfg.Model, err)}
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, &retryableError{err: fmt.Errorf("embedder %s: read answer: %w", e.cfg.Model, err)}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, e.statusError(resp, data)
	}
	return e.decode(data, n)
}

func (e *OpenAIEmbedder) statusError(resp *http.Response, data []byte) error {
	err := fmt.Errorf("embedder %s: %s: %s", e.cfg.Model, resp.Status, strings.TrimSpace(string(data[:min(len(data), 300)])))
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return &retryableError{err: err, retryAfter: time.Duration(secs) * time.Second}
	}
	return err
}

// decode checks the answer: one vector per input, each of the configured
// dimension, and returns them in input order, normalised.
func (e *OpenAIEmbedder) decode(data []byte, n int) ([][]float32, error) {
	var r embeddingResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("embedder %s: decode answer: %w", e.cfg.Model, err)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("embedder %s: %d vectors for %d inputs", e.cfg.Model, len(r.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("embedder %s: bad or repeated index %d in answer", e.cfg.Model, d.Index)
		}
		if len(d.Embedding) != e.cfg.Dimensions {
			return nil, &DimensionError{Model: e.cfg.Model, Got: len(d.Embedding), Want: e.cfg.Dimensions}
		}
		normalize(d.Embedding)
		out[d.Index] = d.Embedding
	}
	return out, nil
}

// DimensionError reports vectors of another size than configured.
type DimensionError struct {
	Model     string
	Got, Want int
}

func (e *DimensionError) Error() string {
	return fmt.Sprintf("embedder %s returned %d-dimensional vectors but the index is configured for %d: "+
		"set the embedder's dimensions to %d (the index is re-embedded) or pick a model that outputs %d",
		e.Model, e.Got, e.Want, e.Got, e.Want)
}

// DetectDimensions embeds one short text to learn a model's dimension.
func DetectDimensions(ctx context.Context, cfg EmbedderConfig) (int, error) {
	cfg.Dimensions = 1
	e, err := NewOpenAIEmbedder(cfg)
	if err != nil {
		return 0, err
	}
	_, err = e.Embed(ctx, []string{"dimension probe"}, RoleQuery)
	var de *DimensionError
	if errors.As(err, &de) {
		return de.Got, nil
	}
	if err != nil {
		return 0, err
	}
	return 1, nil
}
