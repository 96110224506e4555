package mcp

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/toolhub/toolhub/hub"
)

// BM25 parameters (the usual ones).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Field weights: a word in a tool's name says more about what it does than
// one in a parameter name, which says more than one in the description.
const (
	weightName        = 3.0
	weightParameter   = 1.5
	weightDescription = 1.0
)

// searchIndex is a BM25F index over one catalog snapshot: each tool is a
// document whose fields (name and title, parameter names, description) add
// weighted term frequencies. It never changes once built.
type searchIndex struct {
	version  uint64
	tools    []*hub.Tool
	postings map[string][]posting
	docLen   []float64
	avgLen   float64
}

type posting struct {
	doc int
	tf  float64 // weighted term frequency
}

// searchHit is one tool found for a query.
type searchHit struct {
	Tool  *hub.Tool
	Score float64
}

func buildSearchIndex(snap *hub.Snapshot) *searchIndex {
	tools := snap.Tools()
	ix := &searchIndex{
		version:  snap.Version(),
		tools:    tools,
		postings: make(map[string][]posting),
		docLen:   make([]float64, len(tools)),
	}
	total := 0.0
	for doc, t := range tools {
		tf := map[string]float64{}
		add := func(text string, weight float64) {
			for _, term := range tokenize(text) {
				tf[term] += weight
				ix.docLen[doc] += weight
			}
		}
		add(t.Name, weightName)
		add(t.Title, weightName)
		for _, p := range parameterNames(t.InputSchema) {
			add(p, weightParameter)
		}
		add(t.Description, weightDescription)
		for term, f := range tf {
			ix.postings[term] = append(ix.postings[term], posting{doc: doc, tf: f})
		}
		total += ix.docLen[doc]
	}
	if len(tools) > 0 {
		ix.avgLen = total / float64(len(tools))
	}
	return ix
}

// parameterNames lists the top-level property names of an input schema.
func parameterNames(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// search ranks the tools for query, best first, at most limit of them. Only
// tools matching at least one query term are returned; equal scores keep
// name order.
func (ix *searchIndex) search(query string, limit int) []searchHit {
	scores := map[int]float64{}
	n := float64(len(ix.tools))
	seen := map[string]bool{}
	for _, term := range tokenize(query) {
		if seen[term] {
			continue
		}
		seen[term] = true
		postings := ix.postings[term]
		if len(postings) == 0 {
			continue
		}
		df := float64(len(postings))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range postings {
			norm := bm25K1 * (1 - bm25B + bm25B*ix.docLen[p.doc]/ix.avgLen)
			scores[p.doc] += idf * p.tf * (bm25K1 + 1) / (p.tf + norm)
		}
	}
	hits := make([]searchHit, 0, len(scores))
	for doc, score := range scores {
		hits = append(hits, searchHit{Tool: ix.tools[doc], Score: score})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Tool.Name < hits[j].Tool.Name
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// indexCache holds the index of the newest snapshot searched, rebuilding it
// only when the catalog changed. Safe for concurrent use.
type indexCache struct {
	mu sync.Mutex
	ix *searchIndex
}

func (c *indexCache) get(snap *hub.Snapshot) *searchIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ix == nil || c.ix.version < snap.Version() {
		c.ix = buildSearchIndex(snap)
	}
	if c.ix.version == snap.Version() {
		return c.ix
	}
	return buildSearchIndex(snap) // older than the one cached
}

// stopWords carry no meaning for finding a tool.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true,
	"by": true, "for": true, "from": true, "in": true, "is": true, "it": true, "its": true,
	"of": true, "on": true, "or": true, "that": true, "the": true, "this": true, "to": true,
	"with": true, "me": true, "my": true, "i": true, "can": true, "you": true, "your": true,
}

// tokenize splits text into search terms: on every character that is not a
// letter or digit (so on _ - . and spaces), then between a lower-case letter
// or digit and an upper-case letter ("readFile" → read, file) and before the last
// capital of an acronym ("HTTPServer" → http, server). Terms are lower-cased,
// stop words dropped and plurals folded to their singular.
func tokenize(text string) []string {
	var terms []string
	for _, word := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		for _, part := range splitCamel(word) {
			term := normalizeTerm(strings.ToLower(part))
			if term != "" && !stopWords[term] {
				terms = append(terms, term)
			}
		}
	}
	return terms
}

// splitCamel splits a word made only of letters and digits at its case
// changes.
func splitCamel(word string) []string {
	runes := []rune(word)
	var parts []string
	start := 0
	for i := 1; i < len(runes); i++ {
		prev, cur := runes[i-1], runes[i]
		lowerToUpper := (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(cur)
		acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(cur) &&
			i+1 < len(runes) && unicode.IsLower(runes[i+1])
		if lowerToUpper || acronymEnd {
			parts = append(parts, string(runes[start:i]))
			start = i
		}
	}
	return append(parts, string(runes[start:]))
}

// normalizeTerm folds simple English plurals: entities → entity,
// searches → search, files → file; words ending in ss, us or is, and short
// words, stay.
func normalizeTerm(t string) string {
	switch {
	case len(t) > 4 && strings.HasSuffix(t, "ies"):
		return t[:len(t)-3] + "y"
	case len(t) > 4 && (strings.HasSuffix(t, "ches") || strings.HasSuffix(t, "shes") ||
		strings.HasSuffix(t, "sses") || strings.HasSuffix(t, "xes")):
		return t[:len(t)-2]
	case len(t) > 3 && strings.HasSuffix(t, "s") &&
		!strings.HasSuffix(t, "ss") && !strings.HasSuffix(t, "us") && !strings.HasSuffix(t, "is"):
		return t[:len(t)-1]
	default:
		return t
	}
}
