package tools

import (
	"github.com/toolhub/toolhub/retriever"
)

// Passage is one retrieved passage in full: what a research expert reads
// as one document (protocol §3.4, §3.7: each hit is its own "Doc i" and
// the answer expert reads its text, not a snippet). The search tools put
// their passages, best first, under "passages" in the structured result,
// next to the human-readable listing in the text content.
type Passage struct {
	Path  string  `json:"path"` // file path, or URL for web results
	Title string  `json:"title,omitempty"`
	Text  string  `json:"text"`
	Score float64 `json:"score,omitempty"`
}

// documentsContent is search_documents' structured result: the result set
// as the retriever returns it (hits with snippets, mode, note, timings) and
// the passages with their full text.
type documentsContent struct {
	*retriever.Results
	Passages []Passage `json:"passages"`
}

// searchContent moves the hits' full texts into passages (protocol §3.4:
// one document per passage, best first), in rank order: a grouped hit is
// followed by the file's other matches. The hits keep their
// snippets only, so no text is carried twice.
func searchContent(res *retriever.Results) documentsContent {
	passages := make([]Passage, 0, len(res.Hits))
	var add func(hits []retriever.Hit)
	add = func(hits []retriever.Hit) {
		for i := range hits {
			h := &hits[i]
			passages = append(passages, Passage{Path: h.Path, Title: h.Title, Text: h.Text, Score: h.Score})
			h.Text = ""
			add(h.More)
		}
	}
	add(res.Hits)
	return documentsContent{Results: res, Passages: passages}
}

// webPassages are web results as passages (protocol §3.7, the web
// fallback): a result's text is its snippet, all the search providers
// return; the reference also extracts the pages, which toolhub does not.
func webPassages(results []SearchResult) []Passage {
	passages := make([]Passage, 0, len(results))
	for _, r := range results {
		passages = append(passages, Passage{Path: r.URL, Title: r.Title, Text: r.Snippet})
	}
	return passages
}
