package retriever

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// rankedID is a chunk ID with the score its ranking gave it.
type rankedID struct {
	id    string
	score float64
}

// searchRun carries one search through its legs.
type searchRun struct {
	ix   *Index
	q    Query
	view *visibility
	res  *Results
	qvec []float32 // the query's embedding, once computed
	qerr error     // why the query could not be embedded
}

// rank returns the n best visible chunks in mode.
func (s *searchRun) rank(ctx context.Context, mode Mode, n int) ([]rankedID, error) {
	switch mode {
	case ModeVector:
		return s.vector(ctx, n)
	case ModeHybrid:
		return s.hybrid(ctx, n)
	default:
		return s.bm25(ctx, n)
	}
}

// bm25 returns the n best visible chunks by BM25, fetching further pages
// when hidden (uncommitted) chunks were skipped.
func (s *searchRun) bm25(ctx context.Context, n int) ([]rankedID, error) {
	start := time.Now()
	defer func() { s.res.Timings.BM25MS += msSince(start) }()
	var out []rankedID
	for from, page := 0, n; len(out) < n; from, page = from+page, page*2 {
		hits, total, err := s.ix.ft.search(ctx, s.q.Text, s.q.PathPrefix, page, from, &s.ix.bm25)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			if len(out) < n && s.view.visible(h.id) {
				out = append(out, rankedID{id: h.id, score: h.score})
			}
		}
		if uint64(from+page) >= total || len(hits) == 0 {
			break
		}
	}
	return out, nil
}

// vector returns the n chunks closest to the query's embedding.
func (s *searchRun) vector(ctx context.Context, n int) ([]rankedID, error) {
	q, err := s.queryVector(ctx)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	prefix := s.q.PathPrefix
	accept := func(id string) bool { return strings.HasPrefix(id, prefix) }
	if prefix == "" {
		accept = nil
	}
	hits, err := s.ix.nearest(q, n, accept)
	s.res.Timings.VectorMS += msSince(start)
	if err != nil {
		return nil, err
	}
	out := make([]rankedID, 0, len(hits))
	for _, h := range hits {
		if s.view.visible(h.id) {
			out = append(out, rankedID{id: h.id, score: float64(h.score)})
		}
	}
	return out, nil
}

// queryVector embeds the query once per search, however many rounds it
// ranks.
func (s *searchRun) queryVector(ctx context.Context) ([]float32, error) {
	if s.qvec != nil || s.qerr != nil {
		return s.qvec, s.qerr
	}
	start := time.Now()
	q, err := s.ix.brk.embedQuery(ctx, s.q.Text)
	s.res.Timings.EmbedMS = msSince(start)
	if err != nil {
		s.qerr = fmt.Errorf("embed query: %w", err)
		return nil, s.qerr
	}
	normalize(q)
	s.qvec = q
	return q, nil
}

// hybrid fuses the BM25 and vector rankings with RRF and returns the n
// best. When the query cannot be embedded it answers from BM25 alone and
// says why.
func (s *searchRun) hybrid(ctx context.Context, n int) ([]rankedID, error) {
	depth := max(fusionDepth, n)
	lexical, err := s.bm25(ctx, depth)
	if err != nil {
		return nil, err
	}
	semantic, err := s.vector(ctx, depth)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		s.res.Mode = string(ModeBM25)
		if s.res.Note = s.ix.brk.note(); s.res.Note == "" {
			s.res.Note = fmt.Sprintf("embedding endpoint unavailable (%v): BM25 only", err)
		}
		return lexical[:min(len(lexical), n)], nil
	}
	fused := fuseRRF(rrfK, lexical, semantic)
	return fused[:min(len(fused), n)], nil
}

// hits turns ranked chunk IDs into result hits with snippets.
func (s *searchRun) hits(ranked []rankedID) []Hit {
	terms := s.ix.ft.terms(s.q.Text)
	out := make([]Hit, 0, len(ranked))
	for _, r := range ranked {
		rec, chunk, ok := s.view.chunk(r.id)
		if !ok {
			continue
		}
		out = append(out, Hit{
			Path:    rec.Path,
			Title:   rec.Committed.Title,
			Heading: chunk.Heading,
			ChunkID: r.id,
			Start:   chunk.Start,
			End:     chunk.End,
			Score:   r.score,
			Snippet: s.ix.ft.snippet(chunk.Text, terms, snippetBytes),
		})
		if s.q.WithText {
			out[len(out)-1].Text = chunk.Text
		}
	}
	return out
}
