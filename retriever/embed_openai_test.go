package retriever

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// scriptedServer answers /v1/embeddings: each request takes the next
// status from script (200 once the script is used up) and records the
// inputs it saw. Vectors come from hashVector, in reverse index order to
// check that the client reorders them.
type scriptedServer struct {
	t      *testing.T
	dims   int
	mu     sync.Mutex
	script []int
	seen   [][]string
	auth   []string
}

func (s *scriptedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	var req embeddingRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.seen = append(s.seen, req.Input)
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	status := http.StatusOK
	if len(s.script) > 0 {
		status, s.script = s.script[0], s.script[1:]
	}
	s.mu.Unlock()
	if status != http.StatusOK {
		w.Header().Set("Retry-After", "0")
		http.Error(w, `{"error":"busy"}`, status)
		return
	}
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var resp struct {
		Data  []item `json:"data"`
		Model string `json:"model"`
	}
	for i := len(req.Input) - 1; i >= 0; i-- {
		resp.Data = append(resp.Data, item{Index: i, Embedding: hashVector(req.Input[i], s.dims)})
	}
	resp.Model = req.Model
	_ = json.NewEncoder(w).Encode(resp)
}

func newScripted(t *testing.T, dims int, script ...int) (*scriptedServer, string) {
	s := &scriptedServer{t: t, dims: dims, script: script}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

func testEmbedder(t *testing.T, cfg EmbedderConfig) *OpenAIEmbedder {
	t.Helper()
	cfg.Backoff = time.Millisecond
	e, err := NewOpenAIEmbedder(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEmbedderBatchesAndOrders(t *testing.T) {
	srv, url := newScripted(t, 16)
	e := testEmbedder(t, EmbedderConfig{URL: url + "/v1", Model: "plain", Dimensions: 16, BatchSize: 4, APIKey: "k-123"})
	texts := []string{"alpha one", "beta two", "gamma three", "delta four", "epsilon five", "zeta six", "eta seven", "theta eight", "iota nine", "kappa ten"}
	vecs, err := e.Embed(context.Background(), texts, RoleDocument)
	if err != nil {
		t.Fatal(err)
	}
	if got := []int{len(srv.seen[0]), len(srv.seen[1]), len(srv.seen[2])}; len(srv.seen) != 3 || got[0] != 4 || got[1] != 4 || got[2] != 2 {
		t.Fatalf("batches %v, want 4, 4, 2", srv.seen)
	}
	for i, v := range vecs {
		want := hashVector(texts[i], 16)
		for j := range v {
			if math.Abs(float64(v[j]-want[j])) > 1e-6 {
				t.Fatalf("vector %d is not the one for %q", i, texts[i])
			}
		}
	}
	if srv.auth[0] != "Bearer k-123" {
		t.Errorf("Authorization = %q", srv.auth[0])
	}
}

func TestEmbedderRetries(t *testing.T) {
	tests := []struct {
		name     string
		script   []int
		wantErr  string
		requests int
	}{
		{name: "500 then 429 then ok", script: []int{500, 429}, requests: 3},
		{name: "gives up", script: []int{503, 503, 503, 503}, wantErr: "giving up after 3 attempts", requests: 3},
		{name: "400 is final", script: []int{400}, wantErr: "400 Bad Request", requests: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, url := newScripted(t, 8, tc.script...)
			e := testEmbedder(t, EmbedderConfig{URL: url, Model: "m", Dimensions: 8, MaxRetries: 2})
			_, err := e.Embed(context.Background(), []string{"x"}, RoleQuery)
			if tc.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
			if len(srv.seen) != tc.requests {
				t.Errorf("%d requests, want %d", len(srv.seen), tc.requests)
			}
		})
	}
}

func TestEmbedderDimensionMismatch(t *testing.T) {
	_, url := newScripted(t, 384)
	e := testEmbedder(t, EmbedderConfig{URL: url, Model: "small-model", Dimensions: 768})
	_, err := e.Embed(context.Background(), []string{"x"}, RoleDocument)
	var de *DimensionError
	if !errors.As(err, &de) || de.Got != 384 || de.Want != 768 {
		t.Fatalf("err = %v, want a DimensionError 384 vs 768", err)
	}
	for _, want := range []string{"small-model", "384-dimensional", "configured for 768"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	dims, err := DetectDimensions(context.Background(), EmbedderConfig{URL: url, Model: "small-model", Backoff: time.Millisecond})
	if err != nil || dims != 384 {
		t.Errorf("DetectDimensions = %d, %v", dims, err)
	}
}

func TestEmbedderModelPrefixes(t *testing.T) {
	srv, url := newScripted(t, 8)
	e := testEmbedder(t, EmbedderConfig{URL: url, Model: "nomic-embed-text", Dimensions: 8})
	ctx := context.Background()
	if _, err := e.Embed(ctx, []string{"doc"}, RoleDocument); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(ctx, []string{"q"}, RoleQuery); err != nil {
		t.Fatal(err)
	}
	if srv.seen[0][0] != "search_document: doc" || srv.seen[1][0] != "search_query: q" {
		t.Errorf("inputs %v", srv.seen)
	}
}

func TestEmbeddingsURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://h:11434":              "http://h:11434/v1/embeddings",
		"http://h:11434/v1/":          "http://h:11434/v1/embeddings",
		"http://h/api/v1/embeddings":  "http://h/api/v1/embeddings",
		"https://api.example.test/v1": "https://api.example.test/v1/embeddings",
	} {
		if got := embeddingsURL(in); got != want {
			t.Errorf("embeddingsURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIndexWithHTTPEmbedder(t *testing.T) {
	_, url := newScripted(t, 32, 500)
	e := testEmbedder(t, EmbedderConfig{URL: url, Model: "remote", Dimensions: 32, BatchSize: 2})
	ix := openIndex(t, Options{Embedder: e})
	docs := []Document{{Path: "r/1", Text: "Ibises wade in marshes."}, {Path: "r/2", Text: "Yaks graze high pastures."}, {Path: "r/3", Text: "Eels migrate to the sea."}}
	rep, err := ix.IngestDocuments(context.Background(), docs, IngestOptions{})
	if err != nil || rep.Embedded != 3 {
		t.Fatalf("ingest: %+v, %v", rep, err)
	}
	res, err := ix.Search(context.Background(), Query{Text: "yaks graze pastures", Mode: ModeVector, K: 1})
	if err != nil || res.Mode != "vector:remote@32" || len(res.Hits) != 1 || res.Hits[0].Path != "r/2" {
		t.Fatalf("search: %+v, %v", res, err)
	}
}

func FuzzEmbeddingResponse(f *testing.F) {
	f.Add([]byte(`{"data":[{"index":1,"embedding":[1,0]},{"index":0,"embedding":[0,2]}]}`), 2)
	f.Add([]byte(`{"data":[{"index":0,"embedding":[1]}]}`), 1)
	f.Add([]byte(`{"data":[{"index":5}]}`), 1)
	f.Add([]byte(`not json`), 0)
	e, err := NewOpenAIEmbedder(EmbedderConfig{URL: "http://127.0.0.1:1", Model: "m", Dimensions: 2})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, n int) {
		n = abs(n) % 64
		vecs, err := e.decode(body, n)
		if err != nil {
			return
		}
		if len(vecs) != n {
			t.Fatalf("%d vectors for %d inputs", len(vecs), n)
		}
		for _, v := range vecs {
			if len(v) != 2 {
				t.Fatalf("vector of %d dimensions accepted", len(v))
			}
		}
	})
}
