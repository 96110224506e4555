package retriever

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestBreakerAnswersBM25WhileDownAndRecovers(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	emb := &hashEmbedder{model: "hash", dims: 32}
	ix, err := Open(t.TempDir(), Options{Embedder: emb, ProbeInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := ix.Close(); err != nil {
			t.Error(err)
		}
	}()
	probes := make(chan error, 4096)
	ix.brk.onProbe = func(err error) {
		select {
		case probes <- err:
		default:
		}
	}
	ctx := context.Background()
	docs := []Document{{Path: "b/1", Text: "Otters hold hands while sleeping."}, {Path: "b/2", Text: "Basalt cools into columns."}}
	if _, err := ix.IngestDocuments(ctx, docs, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	emb.fail.Store(true)
	first, err := ix.Search(ctx, Query{Text: "otters"})
	if err != nil {
		t.Fatal(err)
	}
	calls := emb.calls.Load()
	second, err := ix.Search(ctx, Query{Text: "otters"})
	if err != nil {
		t.Fatal(err)
	}
	for name, res := range map[string]*Results{"first": first, "second": second} {
		if res.Mode != "bm25" || !strings.Contains(res.Note, "embedder at hash unreachable since") || len(res.Hits) == 0 || res.Hits[0].Path != "b/1" {
			t.Errorf("%s search with the embedder down: %+v", name, res)
		}
	}
	if second.Timings.EmbedMS != 0 {
		t.Errorf("second search spent %v ms embedding; the open breaker should skip it", second.Timings.EmbedMS)
	}
	rep, err := ix.IngestDocuments(ctx, []Document{{Path: "b/3", Text: "Moss grows north."}}, IngestOptions{})
	if err != nil || rep.Indexed != 1 || !strings.Contains(rep.EmbedError, "unreachable since") {
		t.Errorf("ingest with the embedder down: %+v, %v", rep, err)
	}
	if _, err := ix.Search(ctx, Query{Text: "otters", Mode: ModeVector}); err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Errorf("vector search with the embedder down: err = %v", err)
	}
	emb.fail.Store(false)
	for err := range probes {
		if err == nil {
			break
		}
	}
	if got := emb.calls.Load(); got <= calls {
		t.Errorf("no probe reached the embedder (%d calls before, %d after)", calls, got)
	}
	res, err := ix.Search(ctx, Query{Text: "otters"})
	if err != nil || res.Mode != "hybrid:hash@32" || res.Note != "" {
		t.Errorf("search after recovery: %+v, %v", res, err)
	}
	rep, err = ix.IngestDocuments(ctx, nil, IngestOptions{})
	if err != nil || rep.Embedded != 1 {
		t.Errorf("next ingest should backfill the vector of b/3: %+v, %v", rep, err)
	}
}

func TestEndpointRedactsCredentials(t *testing.T) {
	e, err := NewOpenAIEmbedder(EmbedderConfig{URL: "http://user:secret@localhost:11434/v1", Model: "m", Dimensions: 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Endpoint(); strings.Contains(got, "secret") || !strings.Contains(got, "localhost:11434/v1/embeddings") {
		t.Errorf("Endpoint() = %q", got)
	}
}

// BenchmarkSearchEmbedderDown compares a search on an index without an
// embedder with one whose embedder refuses connections or hangs: once
// the breaker is open, both cost the same BM25 search.
func BenchmarkSearchEmbedderDown(b *testing.B) {
	refused := httptest.NewServer(http.NotFoundHandler())
	refusedURL := refused.URL
	refused.Close()
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer func() { hung.CloseClientConnections(); hung.Close() }()
	for _, bc := range []struct {
		name, url string
	}{{"bm25-only", ""}, {"refused", refusedURL}, {"hung", hung.URL}} {
		b.Run(bc.name, func(b *testing.B) {
			opts := Options{ProbeInterval: time.Hour, QueryEmbedTimeout: 200 * time.Millisecond}
			if bc.url != "" {
				emb, err := NewOpenAIEmbedder(EmbedderConfig{URL: bc.url, Model: "m", Dimensions: 8, Backoff: time.Millisecond, MaxRetries: 1, Timeout: 100 * time.Millisecond})
				if err != nil {
					b.Fatal(err)
				}
				opts.Embedder = emb
			}
			ix, err := Open(b.TempDir(), opts)
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = ix.Close() }()
			benchCorpus(b, ix)
			ctx := context.Background()
			if _, err := ix.Search(ctx, Query{Text: "warm up"}); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				res, err := ix.Search(ctx, Query{Text: "lantern quarry heron"})
				if err != nil || res.Mode != "bm25" || len(res.Hits) == 0 {
					b.Fatalf("search: %+v, %v", res, err)
				}
			}
		})
	}
}

func benchCorpus(b *testing.B, ix *Index) {
	b.Helper()
	words := []string{"heron", "walrus", "lantern", "quarry", "ember", "falcon", "meadow"}
	docs := make([]Document, 300)
	for i := range docs {
		var sb strings.Builder
		for j := range 40 {
			sb.WriteString(words[(i*j+j)%len(words)] + " ")
		}
		docs[i] = Document{Path: "bench/" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + "/" + words[i%len(words)] + "-" + time.Duration(i).String(), Text: sb.String()}
	}
	if _, err := ix.IngestDocuments(context.Background(), docs, IngestOptions{}); err != nil {
		b.Fatal(err)
	}
}
