package retriever

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Mode selects how a search ranks chunks.
type Mode string

const (
	ModeAuto   Mode = ""       // hybrid when vectors are available, else BM25
	ModeBM25   Mode = "bm25"   // Bleve full text
	ModeVector Mode = "vector" // embedding similarity only
	ModeHybrid Mode = "hybrid" // BM25 and vectors fused with RRF (k = 60)
)

// ErrNoEmbedder is returned for a vector search on an index without one.
var ErrNoEmbedder = errors.New("vector search needs an embedding endpoint; none is configured")

// Query is one search request.
type Query struct {
	Text       string `json:"query"`
	K          int    `json:"k,omitempty"` // default 10, at most 1000
	Mode       Mode   `json:"mode,omitempty"`
	PathPrefix string `json:"path_prefix,omitempty"`
	// Ungrouped lists every chunk on its own. By default the best chunk of
	// each file comes first and the file's other chunks are folded under
	// it, so that K counts files.
	Ungrouped bool `json:"ungrouped,omitempty"`
	// WithText fills each hit's Text with the chunk's whole text, for
	// callers that show passages rather than snippets.
	WithText bool `json:"with_text,omitempty"`
}

// Hit is one chunk in a result set.
type Hit struct {
	Path    string  `json:"path"`
	Title   string  `json:"title,omitempty"`
	Heading string  `json:"heading,omitempty"`
	ChunkID string  `json:"chunk_id"`
	Start   int     `json:"start"` // byte offsets into the document's extracted text
	End     int     `json:"end"`
	Score   float64 `json:"score"`   // BM25, cosine, or RRF score, per the mode
	Snippet string  `json:"snippet"` // matched terms in **bold**
	// Text is the chunk's whole text when the query asked WithText.
	Text string `json:"text,omitempty"`
	// More holds the file's other matching chunks, best first, when
	// results are grouped.
	More []Hit `json:"more,omitempty"`
}

// Timings break down where a search spent its time.
type Timings struct {
	TotalMS  float64 `json:"total_ms"`
	BM25MS   float64 `json:"bm25_ms,omitempty"`
	EmbedMS  float64 `json:"embed_ms,omitempty"`
	VectorMS float64 `json:"vector_ms,omitempty"`
}

// Results is a result set. Mode is "bm25", or "vector:<model>@<dims>" or
// "hybrid:<model>@<dims>"; Note says why a requested mode fell back.
type Results struct {
	Query   string  `json:"query"`
	Mode    string  `json:"mode"`
	Note    string  `json:"note,omitempty"`
	Hits    []Hit   `json:"hits"`
	Timings Timings `json:"timings"`
}

// fusionDepth is how many hits each leg contributes to a hybrid search.
const fusionDepth = 100

// Search runs a query. Only committed versions of documents are returned.
func (ix *Index) Search(ctx context.Context, q Query) (*Results, error) {
	start := time.Now()
	q, capNote, err := normalizeQuery(q)
	if err != nil {
		return nil, err
	}
	mode, note, err := ix.chooseMode(q.Mode)
	if err != nil {
		return nil, err
	}
	s := &searchRun{ix: ix, q: q, view: newVisibility(ix.db), res: &Results{Query: q.Text, Note: joinNotes(note, capNote)}}
	defer s.view.close()
	var ranked []rankedID
	if q.Ungrouped {
		ranked, err = s.rank(ctx, mode, q.K)
	} else {
		ranked, err = s.rankGrouped(ctx, mode, q.K)
	}
	if err != nil {
		return nil, err
	}
	if s.res.Mode == "" {
		s.res.Mode = ix.modeLabel(mode)
	}
	s.res.Hits = s.hits(ranked)
	if !q.Ungrouped {
		s.res.Hits = groupByPath(s.res.Hits, q.K)
	}
	s.res.Timings.TotalMS = msSince(start)
	return s.res, nil
}

// MaxK is the largest number of results one search returns.
const MaxK = 1000

// normalizeQuery checks q and fills in defaults; the note says when K was
// lowered to MaxK.
func normalizeQuery(q Query) (Query, string, error) {
	q.Text = strings.TrimSpace(q.Text)
	if q.Text == "" {
		return q, "", errors.New("search: empty query")
	}
	var note string
	switch {
	case q.K <= 0:
		q.K = 10
	case q.K > MaxK:
		note = fmt.Sprintf("k = %d lowered to the maximum of %d", q.K, MaxK)
		q.K = MaxK
	}
	switch q.Mode {
	case ModeAuto, ModeBM25, ModeVector, ModeHybrid:
	default:
		return q, "", fmt.Errorf("search: unknown mode %q (want bm25, vector or hybrid)", q.Mode)
	}
	return q, note, nil
}

// joinNotes joins the non-empty notes with "; ".
func joinNotes(notes ...string) string {
	var parts []string
	for _, n := range notes {
		if n != "" {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "; ")
}

// chooseMode resolves the requested mode against what the index has.
func (ix *Index) chooseMode(m Mode) (Mode, string, error) {
	hasVectors := ix.vec != nil && ix.vec.size() > 0
	switch {
	case m == ModeBM25:
		return ModeBM25, "", nil
	case ix.emb == nil && m == ModeVector:
		return "", "", ErrNoEmbedder
	case ix.emb == nil && ix.opts.EmbedderError != nil:
		return ModeBM25, fmt.Sprintf("embedding endpoint configured but unusable (%v): BM25 only", ix.opts.EmbedderError), nil
	case ix.emb == nil:
		return ModeBM25, "no embedding endpoint configured: BM25 only", nil
	case ix.brk.note() != "" && m == ModeVector:
		return "", "", fmt.Errorf("vector search: %s", ix.brk.note())
	case ix.brk.note() != "":
		return ModeBM25, ix.brk.note(), nil
	case !hasVectors && m == ModeVector:
		return "", "", fmt.Errorf("vector search: %s", ix.noVectorsReason())
	case !hasVectors:
		return ModeBM25, ix.noVectorsReason() + ": BM25 only", nil
	case m == ModeVector:
		return ModeVector, "", nil
	default:
		return ModeHybrid, "", nil
	}
}

// noVectorsReason says why no chunk has a vector.
func (ix *Index) noVectorsReason() string {
	if ix.replacedEmbedder != "" {
		return fmt.Sprintf("the embedder changed from %s to %s, so the stored vectors were dropped; "+
			"the next ingest computes them again", ix.replacedEmbedder, ix.EmbedderName())
	}
	return "no chunk has a vector yet (run an ingest to compute them)"
}

func (ix *Index) modeLabel(m Mode) string {
	if m == ModeBM25 {
		return string(ModeBM25)
	}
	return string(m) + ":" + ix.EmbedderName()
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
