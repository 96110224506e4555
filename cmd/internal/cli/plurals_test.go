package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/retriever"
)

// TestCountsReadAsEnglish checks that a count of one is followed by a
// singular noun and any other count by a plural one.
func TestCountsReadAsEnglish(t *testing.T) {
	cases := []struct {
		name  string
		print func(w io.Writer)
		want  string
	}{
		{name: "one search result", want: "mode bm25, 1 result in",
			print: func(w io.Writer) {
				printResults(w, &retriever.Results{Mode: "bm25", Hits: []retriever.Hit{{Path: "/a"}}})
			}},
		{name: "two search results", want: "mode bm25, 2 results in",
			print: func(w io.Writer) {
				printResults(w, &retriever.Results{Mode: "bm25", Hits: []retriever.Hit{{Path: "/a"}, {Path: "/b"}}})
			}},
		{name: "one more passage in a file", want: "(+1 more matching passage in this file)",
			print: func(w io.Writer) {
				printResults(w, &retriever.Results{Mode: "bm25", Hits: []retriever.Hit{{Path: "/a", More: []retriever.Hit{{}}}}})
			}},
		{name: "one chunk written", want: "failed 0 (1 chunk written)",
			print: func(w io.Writer) { printIngestReport(w, retriever.IngestReport{Indexed: 1, Chunks: 1}) }},
		{name: "no chunks written", want: "failed 0 (0 chunks written)",
			print: func(w io.Writer) { printIngestReport(w, retriever.IngestReport{Unchanged: 1}) }},
		{name: "one chunk embedded", want: "embedded 1 chunk\n",
			print: func(w io.Writer) { printIngestReport(w, retriever.IngestReport{Indexed: 1, Chunks: 1, Embedded: 1}) }},
		{name: "one chunk without a vector", want: "no vector yet for 1 chunk elsewhere in the index",
			print: func(w io.Writer) { printIngestReport(w, retriever.IngestReport{Unchanged: 1, Unembedded: 1}) }},
		{name: "one document of one chunk", want: "documents:  1 (1 chunk)\n",
			print: func(w io.Writer) { printStatus(w, retriever.Status{Documents: 1, Chunks: 1}) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			tc.print(&b)
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, b.String())
			}
		})
	}
}
