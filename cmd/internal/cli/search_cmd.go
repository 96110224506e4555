package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/retriever"
)

func newSearchCommand(g *globals) *cobra.Command {
	var q retriever.Query
	var mode string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the private document index",
		Long: `Searches the indexed documents. --mode bm25 ranks by keywords (always
available); vector ranks by embedding similarity and hybrid fuses both with
reciprocal rank fusion, both needing documents.embedder in the config. The
default is hybrid when the index has vectors, else BM25. Each result set
says which mode answered, and why when it fell back.`,
		Example: `  toolhub search "retry with backoff"
  toolhub search --mode bm25 --k 5 --path-prefix ~/notes kubernetes upgrade`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q.Mode = retriever.Mode(mode)
			switch q.Mode {
			case retriever.ModeAuto, retriever.ModeBM25, retriever.ModeVector, retriever.ModeHybrid:
			default:
				return usageError("--mode %q: want bm25, vector or hybrid", mode)
			}
			if q.K < 1 {
				return usageError("--k %d: want at least 1", q.K)
			}
			q.Text = strings.Join(args, " ")
			if strings.TrimSpace(q.Text) == "" {
				return usageError("the query is empty: give the words to search for")
			}
			q.PathPrefix = absIfExists(q.PathPrefix)
			ix, _, err := g.openConfiguredIndex(cmd.Context(), q.Mode != retriever.ModeBM25)
			if err != nil {
				return err
			}
			defer func() { _ = ix.Close() }()
			res, err := ix.Search(cmd.Context(), q)
			if errors.Is(err, retriever.ErrNoEmbedder) {
				return usageError("%v: set documents.embedder in the config, or use --mode bm25", err)
			}
			if err != nil {
				return err
			}
			res.DisplayPaths()
			if asJSON {
				return writeJSON(g.stdio.Out, res)
			}
			printResults(g.stdio.Out, res)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&q.K, "k", 10, "number of results")
	f.StringVar(&mode, "mode", "", "bm25, vector or hybrid (default: hybrid when vectors exist, else bm25)")
	f.StringVar(&q.PathPrefix, "path-prefix", "", "only documents whose path starts with this (a relative path that exists is made absolute)")
	f.BoolVar(&q.Ungrouped, "ungrouped", false, "list every matching chunk on its own (default: the best chunk per file, with the file's other matches folded under it)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func printResults(w io.Writer, res *retriever.Results) {
	fmt.Fprintf(w, "mode %s, %s in %.1f ms\n", res.Mode, conductor.Count(len(res.Hits), "result"), res.Timings.TotalMS)
	if res.Note != "" {
		fmt.Fprintf(w, "note: %s\n", res.Note)
	}
	for i, h := range res.Hits {
		where := h.Path
		if h.Heading != "" {
			where += " › " + h.Heading
		}
		fmt.Fprintf(w, "\n%d. %s  (score %.4g, bytes %d–%d)\n   %s\n", i+1, where, h.Score, h.Start, h.End, h.Snippet)
		if len(h.More) > 0 {
			fmt.Fprintf(w, "   (+%s in this file)\n", conductor.Count(len(h.More), "more matching passage"))
		}
	}
}
