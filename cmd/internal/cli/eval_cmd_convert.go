package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/eval"
)

// newEvalConvertCommand turns CSVs of per-query outcomes and of candidates
// into a v2 replay directory.
func newEvalConvertCommand(g *globals) *cobra.Command {
	var outcomes, candidates, out string
	cmd := &cobra.Command{
		Use:   "convert --outcomes FILE.csv --candidates FILE.csv --out DIR",
		Short: "Turn CSVs of per-query outcomes into a replay directory (format v2)",
		Long: `Reads a CSV of per-query outcomes, one line per (query, model), with columns
id, split (train or test), question, model, score and optionally task,
choices (the answer options shown with the question, which routers read
after it), cost_usd, latency_s, tokens_in, tokens_out (empty cells: not
recorded), and a CSV of candidates with columns name, input_price,
output_price (USD per million tokens; both cells empty for a model whose
every cost_usd is recorded) and optionally size (e.g. 7B; empty: unknown)
and context (tokens). Writes scores_train.json, scores_test.json and
candidates.json to --out, which "toolhub eval --replay DIR" then reads.
Without test rows it writes no scores_test.json (and removes one an
earlier conversion left there): score such a pool with --split
validation. See docs/replay-format.md.`,
		Example: `  toolhub eval convert --outcomes outcomes.csv --candidates models.csv --out pool/
  toolhub eval --replay pool/`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if outcomes == "" || candidates == "" || out == "" {
				return usageError("give --outcomes FILE.csv, --candidates FILE.csv and --out DIR")
			}
			train, test, models, err := readConvertInputs(outcomes, candidates)
			if err != nil {
				return asUsage(err)
			}
			files := map[string]any{"scores_train.json": train, "scores_test.json": test, "candidates.json": models}
			if len(test) == 0 {
				delete(files, "scores_test.json")
			}
			for name, v := range files {
				data, err := json.MarshalIndent(v, "", "  ")
				if err != nil {
					return fmt.Errorf("encode %s: %w", name, err)
				}
				if err := config.WriteFileAtomic(filepath.Join(out, name), append(data, '\n'), 0o644); err != nil {
					return err
				}
			}
			if len(test) == 0 {
				// A test split of an earlier conversion must not be
				// scored as this pool's.
				if err := os.Remove(filepath.Join(out, "scores_test.json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("remove the earlier test split: %w", err)
				}
			}
			fmt.Fprintf(g.stdio.Out, "wrote %d train and %d test rows over %d candidates to %s\n", len(train), len(test), len(models), out)
			if len(test) == 0 {
				fmt.Fprintf(g.stdio.Out, "no test rows: score it on a part held out of train with \"toolhub eval --replay %s --split validation\"\n", out)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&outcomes, "outcomes", "", "CSV of per-query outcomes (one line per query and model)")
	fl.StringVar(&candidates, "candidates", "", "CSV of candidate models with prices")
	fl.StringVar(&out, "out", "", "directory to write the replay set to")
	return cmd
}

func readConvertInputs(outcomes, candidates string) ([]eval.ReplayRow, []eval.ReplayRow, []candidateJSON, error) {
	f, err := os.Open(outcomes)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read outcomes: %w", err)
	}
	defer f.Close()
	train, test, err := eval.ConvertOutcomes(outcomes, f)
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := os.Open(candidates)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read candidates: %w", err)
	}
	defer c.Close()
	models, err := eval.ConvertCandidates(candidates, c)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(train) == 0 {
		return nil, nil, nil, fmt.Errorf("%s: no train rows (test %d): the routers learn from train", outcomes, len(test))
	}
	if err := checkScoredListed(outcomes, candidates, models, train, test); err != nil {
		return nil, nil, nil, err
	}
	out := make([]candidateJSON, len(models))
	for i, m := range models {
		out[i] = candidateJSON{Name: m.Name, Size: sizeText(m.SizeB), Context: m.Context}
		if !m.Unpriced {
			out[i].InputPrice, out[i].OutputPrice = &m.PriceIn, &m.PriceOut
		}
	}
	return train, test, out, nil
}

// checkScoredListed refuses a model the outcomes score that the
// candidates CSV does not list: the replay would refuse the set.
func checkScoredListed(outcomes, candidates string, models []eval.ReplayModel, splits ...[]eval.ReplayRow) error {
	listed := make(map[string]bool, len(models))
	for _, m := range models {
		listed[m.Name] = true
	}
	for _, rows := range splits {
		for _, r := range rows {
			for _, m := range slices.Sorted(maps.Keys(r.Scores)) {
				if !listed[m] {
					return fmt.Errorf("%s: row %s: model %q is scored but not listed in %s (the replay needs its prices)", outcomes, r.ID, m, candidates)
				}
			}
		}
	}
	return nil
}

// candidateJSON is one entry of a v2 candidates.json; a model without
// prices has none.
type candidateJSON struct {
	Name        string   `json:"name"`
	InputPrice  *float64 `json:"input_price,omitempty"`
	OutputPrice *float64 `json:"output_price,omitempty"`
	Size        string   `json:"size"`
	Context     int      `json:"context,omitempty"`
}

func sizeText(b float64) string {
	if b <= 0 {
		return ""
	}
	return fmt.Sprintf("%gB", b)
}
