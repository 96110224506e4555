package retriever

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Defaults for the embedder's circuit breaker.
const (
	DefaultQueryEmbedTimeout = 2 * time.Second
	DefaultProbeInterval     = 5 * time.Second
	maxProbeInterval         = 2 * time.Minute
	probeTimeout             = 10 * time.Second
)

// errEmbedderDown is returned, wrapped with the breaker's note, while the
// embedder is considered unreachable.
var errEmbedderDown = errors.New("embedder unreachable")

// singleAttempt is implemented by embedders that can be asked to try a
// request once, with no retries: a query must not wait out a backoff.
type singleAttempt interface {
	once() Embedder
}

// endpointNamer is implemented by embedders that can name where they send
// requests (without credentials).
type endpointNamer interface {
	Endpoint() string
}

// breaker stands between searches and the embedder. The first failed
// query embedding opens it: from then on searches answer from BM25 at
// once, saying since when the embedder is unreachable, while one
// goroutine probes the embedder with growing intervals and closes the
// breaker when it answers. The goroutine ends when the index closes.
type breaker struct {
	emb      Embedder
	query    Embedder // single-attempt view of emb for queries
	where    string
	timeout  time.Duration
	interval time.Duration

	mu        sync.Mutex
	downSince time.Time // zero while healthy
	lastErr   error
	probing   bool
	closed    bool
	stop      chan struct{}
	wg        sync.WaitGroup

	// onProbe, when set by a test, receives the outcome of every probe.
	onProbe func(error)
}

func newBreaker(emb Embedder, opts Options) *breaker {
	b := &breaker{emb: emb, query: emb, where: emb.Model(), timeout: opts.QueryEmbedTimeout,
		interval: opts.ProbeInterval, stop: make(chan struct{})}
	if s, ok := emb.(singleAttempt); ok {
		b.query = s.once()
	}
	if n, ok := emb.(endpointNamer); ok {
		b.where = n.Endpoint()
	}
	return b
}

// note says why searches are BM25 only, or "" while the embedder is up.
func (b *breaker) note() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.downSince.IsZero() {
		return ""
	}
	return fmt.Sprintf("embedder at %s unreachable since %s (%v): BM25 only",
		b.where, b.downSince.UTC().Format(time.RFC3339), b.lastErr)
}

// embedQuery embeds one query, failing at once while the breaker is open.
func (b *breaker) embedQuery(ctx context.Context, text string) ([]float32, error) {
	if note := b.note(); note != "" {
		return nil, fmt.Errorf("%w: %s", errEmbedderDown, note)
	}
	qctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	vecs, err := b.query.Embed(qctx, []string{text}, RoleQuery)
	if err == nil && len(vecs) != 1 {
		err = fmt.Errorf("%d vectors for one query", len(vecs))
	}
	if err != nil {
		if ctx.Err() == nil {
			b.trip(err)
		}
		return nil, err
	}
	return vecs[0], nil
}

// trip opens the breaker after a failure and starts the prober.
func (b *breaker) trip(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.downSince.IsZero() {
		b.downSince = time.Now()
	}
	b.lastErr = err
	if b.probing || b.closed {
		return
	}
	b.probing = true
	b.wg.Add(1)
	go b.probeLoop()
}

// probeLoop probes until the embedder answers or the index closes.
func (b *breaker) probeLoop() {
	defer b.wg.Done()
	wait := b.interval
	for {
		t := time.NewTimer(wait)
		select {
		case <-b.stop:
			t.Stop()
			return
		case <-t.C:
		}
		err := b.probe(context.Background())
		if b.onProbe != nil {
			b.onProbe(err)
		}
		if b.settle(err, true) {
			return
		}
		wait = min(2*wait, maxProbeInterval)
	}
}

// retryNow probes once, from an ingest, and reports whether the embedder
// answered (closing the breaker).
func (b *breaker) retryNow(ctx context.Context) bool {
	err := b.probe(ctx)
	b.settle(err, false)
	return err == nil
}

// settle records a probe's outcome and reports whether the breaker closed.
func (b *breaker) settle(err error, prober bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if prober && err == nil {
		b.probing = false
	}
	if err != nil {
		b.lastErr = err
		return false
	}
	b.downSince, b.lastErr = time.Time{}, nil
	return true
}

// probe embeds a short text once, given up when the index closes.
func (b *breaker) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	go func() {
		select {
		case <-b.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	_, err := b.query.Embed(ctx, []string{"probe"}, RoleQuery)
	return err
}

// close stops the prober and waits for it.
func (b *breaker) close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.stop)
	}
	b.mu.Unlock()
	b.wg.Wait()
}
