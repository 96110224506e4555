package retriever

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Bleve field names. Only contents is scored; path serves the prefix filter.
const (
	fieldContents = "contents"
	fieldPath     = "path"
)

// fulltext is the Bleve side of the index: one document per chunk.
type fulltext struct {
	index    bleve.Index
	analyzer analysis.Analyzer
}

// ftDoc is one chunk as Bleve indexes it.
type ftDoc struct {
	id       string
	path     string
	contents string
}

func newMapping() *mapping.IndexMappingImpl {
	im := bleve.NewIndexMapping()
	im.ScoringModel = "bm25"
	im.DefaultAnalyzer = en.AnalyzerName
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false

	contents := bleve.NewTextFieldMapping()
	contents.Analyzer = en.AnalyzerName
	contents.Store = false
	contents.IncludeInAll = false
	contents.IncludeTermVectors = false
	contents.DocValues = false

	path := bleve.NewKeywordFieldMapping()
	path.Store = false
	path.IncludeInAll = false
	path.IncludeTermVectors = false
	path.DocValues = false

	dm := bleve.NewDocumentStaticMapping()
	dm.AddFieldMappingsAt(fieldContents, contents)
	dm.AddFieldMappingsAt(fieldPath, path)
	im.DefaultMapping = dm
	return im
}

// BM25 parameters, chosen on the SciFact train queries (k1 from 0.9 to
// 1.8 and b from 0.4 to 0.9 swept; the test queries were not used).
// Bleve keeps them in package variables, so they hold process-wide.
const (
	bm25K1 = 1.8
	bm25B  = 0.75
)

var setBM25Params sync.Once

// openFulltext opens the Bleve index at dir, creating it when absent.
func openFulltext(dir string) (*fulltext, error) {
	setBM25Params.Do(func() { search.BM25_k1, search.BM25_b = bm25K1, bm25B })
	idx, err := bleve.Open(dir)
	if errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		idx, err = bleve.New(dir, newMapping())
	}
	if err != nil {
		return nil, fmt.Errorf("open full-text index %s: %w", dir, err)
	}
	an := idx.Mapping().AnalyzerNamed(en.AnalyzerName)
	if an == nil {
		_ = idx.Close()
		return nil, fmt.Errorf("open full-text index %s: analyzer %q missing", dir, en.AnalyzerName)
	}
	return &fulltext{index: idx, analyzer: an}, nil
}

func (f *fulltext) close() error { return f.index.Close() }

// apply deletes and indexes chunks in one Bleve batch. Bleve applies a
// batch atomically and, for an on-disk index, returns once it is persisted.
func (f *fulltext) apply(deletes []string, docs []ftDoc) error {
	b := f.index.NewBatch()
	for _, id := range deletes {
		b.Delete(id)
	}
	for _, d := range docs {
		if err := b.Index(d.id, map[string]any{fieldContents: d.contents, fieldPath: d.path}); err != nil {
			return fmt.Errorf("full-text index %s: %w", d.id, err)
		}
	}
	if b.Size() == 0 {
		return nil
	}
	if err := f.index.Batch(b); err != nil {
		return fmt.Errorf("full-text batch: %w", err)
	}
	return nil
}

// count is the number of chunks in the full-text index.
func (f *fulltext) count() (uint64, error) { return f.index.DocCount() }

// ids lists every chunk ID in the full-text index.
func (f *fulltext) ids() ([]string, error) {
	adv, err := f.index.Advanced()
	if err != nil {
		return nil, fmt.Errorf("full-text reader: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, fmt.Errorf("full-text reader: %w", err)
	}
	defer func() { _ = r.Close() }()
	all, err := r.DocIDReaderAll()
	if err != nil {
		return nil, fmt.Errorf("full-text ids: %w", err)
	}
	defer func() { _ = all.Close() }()
	var out []string
	for {
		internal, err := all.Next()
		if err != nil {
			return nil, fmt.Errorf("full-text ids: %w", err)
		}
		if internal == nil {
			return out, nil
		}
		id, err := r.ExternalID(internal)
		if err != nil {
			return nil, fmt.Errorf("full-text ids: %w", err)
		}
		out = append(out, id)
	}
}

// ftHit is one BM25 hit.
type ftHit struct {
	id    string
	score float64
}

// search runs a BM25 match query over contents, restricted to paths
// starting with pathPrefix when it is set, and returns up to size hits
// starting at from, plus the total number of matches.
func (f *fulltext) search(ctx context.Context, text, pathPrefix string, size, from int, stats *bm25Totals) ([]ftHit, uint64, error) {
	ctx = stats.withStats(ctx)
	match := bleve.NewMatchQuery(text)
	match.SetField(fieldContents)
	var q query.Query = match
	if pathPrefix != "" {
		prefix := bleve.NewPrefixQuery(pathPrefix)
		prefix.SetField(fieldPath)
		bq := bleve.NewBooleanQuery()
		bq.AddMust(match)
		bq.AddFilter(prefix)
		q = bq
	}
	req := bleve.NewSearchRequestOptions(q, size, from, false)
	res, err := f.index.SearchInContext(ctx, req)
	if err != nil {
		return nil, 0, fmt.Errorf("full-text search: %w", err)
	}
	hits := make([]ftHit, len(res.Hits))
	for i, h := range res.Hits {
		hits[i] = ftHit{id: h.ID, score: h.Score}
	}
	return hits, res.Total, nil
}

// terms analyses text with the index's analyzer and returns the distinct
// terms, as the query sees them.
func (f *fulltext) terms(text string) map[string]bool {
	out := map[string]bool{}
	for _, tok := range f.analyzer.Analyze([]byte(text)) {
		out[string(tok.Term)] = true
	}
	return out
}

// chunkContents is the scored text of a chunk: the document title, the
// heading path and the chunk text.
func chunkContents(title, heading, text string) string {
	parts := make([]string, 0, 3)
	for _, p := range []string{title, heading, text} {
		if p = strings.TrimSpace(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}
