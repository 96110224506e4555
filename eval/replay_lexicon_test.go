package eval

import (
	"encoding/json"
	"testing"

	"github.com/toolhub/toolhub/policies"
)

// TestEvalReplayLexiconChangesNoFigure replays a set with and without the
// shared tokenisation (a lexicon holding no text makes every router cut
// its strings itself): the reports, operating points included, must be
// byte-identical.
func TestEvalReplayLexiconChangesNoFigure(t *testing.T) {
	set := syntheticSet(t)
	withFamilies := *set
	withFamilies.Train = append([]ReplayRow(nil), set.Train...)
	for i := range withFamilies.Train {
		withFamilies.Train[i].Task = []string{"math", "trivia"}[i%2]
	}
	for name, s := range map[string]*ReplaySet{"no families": set, "families": &withFamilies} {
		t.Run(name, func(t *testing.T) {
			opts := ReplayOptions{Policies: append([]string{SinglesName}, RouterNames...), CostWeights: []float64{0, 0.2}}
			shared, err := Replay(s, opts)
			if err != nil {
				t.Fatal(err)
			}
			empty := policies.NewLexicon(nil)
			opts.LogReg.Lexicon, opts.MF.Lexicon, opts.KNN.Lexicon = empty, empty, empty
			own, err := Replay(s, opts)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(shared)
			b, _ := json.Marshal(own)
			if string(a) != string(b) {
				t.Fatalf("reports differ:\n%s\n%s", a, b)
			}
		})
	}
}
