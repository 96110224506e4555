package retriever

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// clusteredVectors makes n unit vectors around `clusters` random centres.
func clusteredVectors(r *rand.Rand, n, dims, clusters int) [][]float32 {
	centres := make([][]float32, clusters)
	for i := range centres {
		centres[i] = randomUnit(r, dims, nil, 0)
	}
	out := make([][]float32, n)
	for i := range out {
		out[i] = randomUnit(r, dims, centres[r.IntN(clusters)], 0.5)
	}
	return out
}

// randomUnit is a random unit vector, or one near centre when given.
func randomUnit(r *rand.Rand, dims int, centre []float32, noise float32) []float32 {
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(r.NormFloat64())
		if centre != nil {
			v[i] = centre[i] + noise*v[i]/8
		}
	}
	normalize(v)
	return v
}

// naiveTop is the reference: score everything, sort.
func naiveTop(vecs [][]float32, q []float32, k int) []string {
	hits := make([]vecHit, len(vecs))
	for i, v := range vecs {
		var s float32
		for j := range v {
			s += v[j] * q[j]
		}
		hits[i] = vecHit{id: fmt.Sprintf("v%05d", i), score: s}
	}
	slices.SortFunc(hits, compareHits)
	ids := make([]string, k)
	for i := range ids {
		ids[i] = hits[i].id
	}
	return ids
}

func hitIDs(hits []vecHit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	return ids
}

// newTestVectorSet is an empty vector set over a code file in a temporary
// folder.
func newTestVectorSet(t *testing.T, dims int) *vectorSet {
	t.Helper()
	cf, err := openCodeFile(filepath.Join(t.TempDir(), codeFileName), dims)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cf.close() })
	vs := newVectorSet(dims, cf)
	vs.loaded()
	return vs
}

func addVectors(t *testing.T, vs *vectorSet, first int, vecs [][]float32) {
	t.Helper()
	ids := make([]string, len(vecs))
	for i := range vecs {
		ids[i] = fmt.Sprintf("v%05d", first+i)
	}
	ps, err := vs.place(ids, vecs)
	if err != nil {
		t.Fatal(err)
	}
	vs.publish(ps)
}

// rerankInMemory is Index.rerank with the floats at hand.
func rerankInMemory(vecs [][]float32, q []float32, k int, cands []vecHit) []string {
	top := &topK{k: k}
	for _, c := range cands {
		var i int
		_, _ = fmt.Sscanf(c.id, "v%05d", &i)
		top.offer(vecHit{id: c.id, score: dot(q, vecs[i])})
	}
	return hitIDs(top.sorted())
}

// TestCompactScanRecall checks the int8 code scan with an exact re-rank of
// DefaultCandidates rows against a naive float scan, on random vectors
// (the hardest case: neighbours barely stand out) and clustered ones.
func TestCompactScanRecall(t *testing.T) {
	const dims, n, queries, k = 384, 20_000, 40, 10
	cases := []struct {
		name string
		make func(r *rand.Rand) [][]float32
	}{
		{"random", func(r *rand.Rand) [][]float32 {
			out := make([][]float32, n)
			for i := range out {
				out[i] = randomUnit(r, dims, nil, 0)
			}
			return out
		}},
		{"clustered", func(r *rand.Rand) [][]float32 { return clusteredVectors(r, n, dims, 200) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			vecs := tc.make(r)
			vs := newTestVectorSet(t, dims)
			addVectors(t, vs, 0, vecs)
			var found float64
			for range queries {
				q := randomUnit(r, dims, vecs[r.IntN(n)], 4)
				want := naiveTop(vecs, q, k)
				got := rerankInMemory(vecs, q, k, vs.candidates(q, DefaultCandidates, nil))
				for _, id := range got {
					if slices.Contains(want, id) {
						found++
					}
				}
			}
			recall := found / (queries * k)
			t.Logf("recall@%d = %.4f", k, recall)
			if recall < 0.98 {
				t.Fatalf("recall@%d of the code scan = %.4f, want ≥ 0.98", k, recall)
			}
		})
	}
}

func TestVectorSetRemoveReusesRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vs := newTestVectorSet(t, 16)
	var all [][]float32
	for range 3000 {
		all = append(all, randomUnit(r, 16, nil, 0))
	}
	addVectors(t, vs, 0, all)
	rows := vs.codes.rows
	var gone []string
	for i := 0; i < 3000; i += 2 {
		gone = append(gone, fmt.Sprintf("v%05d", i))
	}
	vs.remove(gone)
	if vs.size() != 1500 {
		t.Fatalf("after removing half: size %d", vs.size())
	}
	for _, h := range vs.candidates(all[0], 50, nil) {
		if slices.Contains(gone, h.id) {
			t.Fatalf("removed vector %s returned", h.id)
		}
	}
	var more [][]float32
	for range 1500 {
		more = append(more, randomUnit(r, 16, nil, 0))
	}
	addVectors(t, vs, 3000, more)
	if vs.codes.rows != rows || vs.size() != 3000 {
		t.Fatalf("adding into freed rows: file rows %d → %d, size %d", rows, vs.codes.rows, vs.size())
	}
	got := rerankInMemory(slices.Concat(all, more), more[7], 1, vs.candidates(more[7], 10, nil))
	if !slices.Equal(got, []string{"v03007"}) {
		t.Fatalf("nearest to a vector placed in a reused row: %v", got)
	}
}

func TestDotMatchesPlainLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 7, 8, 9, 768, 1001} {
		a, b := randomUnit(r, n+1, nil, 0)[:n], randomUnit(r, n+1, nil, 0)[:n]
		var want float64
		for i := range a {
			want += float64(a[i]) * float64(b[i])
		}
		if got := float64(dot(a, b)); got-want > 1e-5 || want-got > 1e-5 {
			t.Errorf("n=%d: dot = %v, want %v", n, got, want)
		}
	}
}

func TestVectorsPersistAndFollowTheEmbedder(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	docs := []Document{{Path: "p/1", Text: "Pangolins roll into balls."}, {Path: "p/2", Text: "Herons fish in shallow water."}}
	emb := &hashEmbedder{model: "hash-a", dims: 32}
	ix, err := Open(dir, Options{Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := ix.IngestDocuments(ctx, docs, IngestOptions{}); err != nil || rep.Embedded != 2 {
		t.Fatalf("ingest: %+v, %v", rep, err)
	}
	if _, err := ix.Remove(ctx, "p/2"); err != nil {
		t.Fatal(err)
	}
	_ = ix.Close()

	same := &hashEmbedder{model: "hash-a", dims: 32}
	ix, err = Open(dir, Options{Embedder: same})
	if err != nil {
		t.Fatal(err)
	}
	if ix.vec.size() != 1 || !ix.vec.has(chunkIDOf("p/1", 1, 0)) {
		t.Fatalf("reopened with %d vectors", ix.vec.size())
	}
	if rep, _ := ix.IngestDocuments(ctx, docs[:1], IngestOptions{}); rep.Embedded != 0 || same.calls.Load() != 0 {
		t.Fatalf("unchanged document re-embedded: %+v, %d calls", rep, same.calls.Load())
	}
	_ = ix.Close()

	other := &hashEmbedder{model: "hash-b", dims: 48}
	ix = openIndexAt(t, dir, Options{Embedder: other})
	if ix.vec.size() != 0 {
		t.Fatalf("vectors of another model kept: %d", ix.vec.size())
	}
	res, err := ix.Search(ctx, Query{Text: "anything"})
	if err != nil || !strings.Contains(res.Note, "embedder changed from hash-a@32 to hash-b@48") {
		t.Fatalf("search after the model change: %+v, %v", res, err)
	}
	rep, err := ix.IngestDocuments(ctx, docs[:1], IngestOptions{})
	if err != nil || rep.Embedded != 1 {
		t.Fatalf("re-embedding after a model change: %+v, %v", rep, err)
	}
	st, _ := ix.Status()
	if st.Embedder != "hash-b@48" || st.StoredEmbedder != "hash-b@48" || st.Vectors != 1 {
		t.Errorf("status: %+v", st)
	}
}

func TestEmbedFailureKeepsTextAndRetriesLater(t *testing.T) {
	emb := &hashEmbedder{model: "hash", dims: 16}
	emb.fail.Store(true)
	ix := openIndex(t, Options{Embedder: emb})
	ctx := context.Background()
	docs := []Document{{Path: "m/1", Text: "Meerkats stand guard."}}
	rep, err := ix.IngestDocuments(ctx, docs, IngestOptions{})
	if err != nil || rep.Indexed != 1 || rep.EmbedError == "" {
		t.Fatalf("ingest with the endpoint down: %+v, %v", rep, err)
	}
	if got := searchPaths(t, ix, Query{Text: "meerkats"}); !slices.Equal(got, []string{"m/1"}) {
		t.Fatalf("text not searchable: %v", got)
	}
	emb.fail.Store(false)
	rep, err = ix.IngestDocuments(ctx, docs, IngestOptions{})
	if err != nil || rep.Unchanged != 1 || rep.Embedded != 1 {
		t.Fatalf("next ingest should fill the missing vector: %+v, %v", rep, err)
	}
}

func TestVectorSearchReranksFewCandidates(t *testing.T) {
	emb := &hashEmbedder{model: "hash", dims: 64}
	ix := openIndex(t, Options{Embedder: emb, Candidates: 1})
	docs := []Document{
		{Path: "s/1", Text: "Salamanders regrow limbs."},
		{Path: "s/2", Text: "Volcanoes erupt lava."},
		{Path: "s/3", Text: "Comets orbit the sun."},
	}
	if _, err := ix.IngestDocuments(context.Background(), docs, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	got := searchPaths(t, ix, Query{Text: "salamanders regrow limbs", Mode: ModeVector, K: 1})
	if !slices.Equal(got, []string{"s/1"}) {
		t.Fatalf("vector search with two re-ranked candidates = %v", got)
	}
}

func TestStatusCountsStoredVectorsWithoutEmbedder(t *testing.T) {
	dir := t.TempDir()
	emb := &hashEmbedder{model: "hash", dims: 16}
	ix, err := Open(dir, Options{Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.IngestDocuments(context.Background(), []Document{{Path: "v/1", Text: "Newts swim."}}, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := openIndexAt(t, dir, Options{}).Status()
	if err != nil || st.Vectors != 1 || st.StoredEmbedder != "hash@16" {
		t.Fatalf("status without the embedder: %+v, %v", st, err)
	}
	empty, err := openIndex(t, Options{Embedder: emb}).Status()
	if err != nil || empty.Vectors != 0 || empty.StoredEmbedder != "" {
		t.Fatalf("status of an index with no vectors: %+v, %v", empty, err)
	}
}
