package eval

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeReplayDir writes a replay directory of the given rows and candidates.
func writeReplayDir(t *testing.T, train, test []ReplayRow, candidates string) string {
	t.Helper()
	dir := t.TempDir()
	for name, rows := range map[string][]ReplayRow{replayTrainScores: train, replayTestScores: test} {
		data, err := json.Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, replayCandidatesV2), []byte(candidates), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

const twoModels = `[{"name":"a","input_price":1,"output_price":1,"size":"7B"},{"name":"b","input_price":2,"output_price":2,"size":"70B"}]`

func row(id, q string, scores map[string]float64) ReplayRow {
	return ReplayRow{ID: id, Question: q, Scores: scores}
}

func TestEvalReplayLoaderRefusesIncompleteRows(t *testing.T) {
	train := []ReplayRow{
		row("t1", "q1", map[string]float64{"a": 1, "b": 0}),
		row("t2", "q2", map[string]float64{"a": 1}),
		row("t3", "q3", map[string]float64{"b": 1}),
	}
	test := []ReplayRow{row("", "q4", map[string]float64{"a": 0}), row("", "q5", map[string]float64{"a": 0, "b": 1})}
	dir := writeReplayDir(t, train, test, twoModels)

	_, err := LoadReplay(dir)
	var inc *IncompleteError
	if !errors.As(err, &inc) {
		t.Fatalf("err %v, want an IncompleteError", err)
	}
	if inc.Rows != 3 || inc.Total != 5 {
		t.Fatalf("%d of %d incomplete, want 3 of 5", inc.Rows, inc.Total)
	}
	for _, want := range []string{"3 of 5 rows", "t2 in scores_train.json (missing b)", "t3 in scores_train.json (missing a)", "test#1 in scores_test.json (missing b)", "--drop-incomplete"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}

	set, err := LoadReplayWith(dir, LoadOptions{DropIncomplete: true})
	if err != nil {
		t.Fatal(err)
	}
	if set.Incomplete != 3 || len(set.Train) != 1 || len(set.Test) != 1 || set.Test[0].Question != "q5" {
		t.Fatalf("dropped %d, train %d, test %d", set.Incomplete, len(set.Train), len(set.Test))
	}
	if notes := strings.Join(replayNotes(set), "\n"); !strings.Contains(notes, "3 rows lacking a score") {
		t.Fatalf("notes do not report the drop: %s", notes)
	}
}

func TestEvalReplayLoaderListsAtMostFiveIDs(t *testing.T) {
	var train []ReplayRow
	for i := range 8 {
		train = append(train, row("", "q"+string(rune('a'+i)), map[string]float64{"a": 1}))
	}
	train = append(train, row("", "full", map[string]float64{"a": 1, "b": 1}))
	dir := writeReplayDir(t, train, []ReplayRow{row("", "x", map[string]float64{"a": 1, "b": 1})}, twoModels)
	_, err := LoadReplay(dir)
	var inc *IncompleteError
	if !errors.As(err, &inc) || inc.Rows != 8 || len(inc.First) != maxListedIDs || inc.First[0] != "train#1 in scores_train.json (missing b)" {
		t.Fatalf("err %v", err)
	}
}

func TestEvalReplayModelsAreTheUnionOverRows(t *testing.T) {
	// The first train row scores only a; b appears later, c only in test.
	// With --drop-incomplete every row lacking one is dropped, but the
	// candidates are still all three.
	// The unscored candidates are not checked: a size in a notation the
	// loader does not read, one price of two.
	three := `[{"name":"a","input_price":1,"output_price":1},{"name":"b","input_price":1,"output_price":1},` +
		`{"name":"c","input_price":1,"output_price":1},{"name":"unscored","input_price":1,"output_price":1,"size":"8x7B"},` +
		`{"name":"unpriced","input_price":1}]`
	train := []ReplayRow{row("", "q1", map[string]float64{"a": 1}), row("", "q2", map[string]float64{"a": 0, "b": 1, "c": 0})}
	test := []ReplayRow{row("", "q3", map[string]float64{"a": 0, "b": 0, "c": 1})}
	set, err := LoadReplayWith(writeReplayDir(t, train, test, three), LoadOptions{DropIncomplete: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range set.Models {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "a,b,c" {
		t.Fatalf("models %v, want a,b,c", names)
	}
	rep, err := Replay(set, ReplayOptions{Policies: []string{OracleName}})
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := rep.Find(OracleName); o.Accuracy != 1 {
		t.Fatalf("oracle %.3f, want 1 (c answers the test row)", o.Accuracy)
	}
}

func TestEvalReplayLoaderRefusals(t *testing.T) {
	ok := []ReplayRow{row("", "q", map[string]float64{"a": 1, "b": 1})}
	cases := []struct {
		name       string
		train      []ReplayRow
		candidates string
		want       string
	}{
		{"unpriced model", []ReplayRow{row("", "q", map[string]float64{"a": 1, "z": 1})}, twoModels, `no price for scored model "z"`},
		{"bad size", ok, `[{"name":"a","input_price":1,"output_price":1,"size":"huge"},{"name":"b","input_price":1,"output_price":1}]`, `size "huge"`},
		{"one price of two", ok, `[{"name":"a","output_price":1},{"name":"b","input_price":1,"output_price":1}]`, "input_price and output_price"},
		{"no prices and a cost not recorded", ok, `[{"name":"a"},{"name":"b","input_price":1,"output_price":1}]`,
			`model "a" has no input_price and output_price, and 2 rows do not record its cost_usd, first: train#1, test#1`},
		{"twice", ok, `[{"name":"a","input_price":1,"output_price":1},{"name":"a","input_price":1,"output_price":1}]`, "listed twice"},
		{"score above 1", []ReplayRow{row("", "q", map[string]float64{"a": 2, "b": 1})}, twoModels, "want a number in [0,1]"},
		{"negative cost", []ReplayRow{{Question: "q", Scores: map[string]float64{"a": 1, "b": 1}, CostUSD: map[string]float64{"a": -1}}}, twoModels, "cost_usd"},
		{"cost of a model no row scores", []ReplayRow{{Question: "q", Scores: map[string]float64{"a": 1, "b": 1}, CostUSD: map[string]float64{"a": 1, "B": 1}}},
			twoModels, `scores_train.json: row train#1: cost_usd names model "B", which no row scores`},
		{"tokens of a model no row scores", []ReplayRow{{ID: "r7", Question: "q", Scores: map[string]float64{"a": 1, "b": 1}, TokensOut: map[string]float64{"c": 9}}},
			twoModels, `scores_train.json: row r7: tokens_out names model "c", which no row scores`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadReplay(writeReplayDir(t, tc.train, ok, tc.candidates))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// A path that is not a replay set is told apart from a set that is
// broken: no such folder, a file, a folder without the train scores.
func TestEvalReplayLoaderSaysWhatIsNotASet(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "scores.csv")
	if err := os.WriteFile(file, []byte("id,score\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, want string
	}{
		{"no such folder", filepath.Join(dir, "typo"), "no replay set at " + filepath.Join(dir, "typo") + ": there is no such folder"},
		{"a file", file, "no replay set at " + file + ": it is a file, and a replay set is a folder"},
		{"a folder without scores", dir, dir + " is not a replay set: it has no scores_train.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadReplay(tt.dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}

func TestEvalReplayUnknownSizeHasNoLatency(t *testing.T) {
	cands := `{"a":{"size":"","input_price":0.1,"output_price":0.1},"b":{"size":"70B","input_price":1,"output_price":1}}`
	train := []ReplayRow{row("", "q1", map[string]float64{"a": 1, "b": 1})}
	test := []ReplayRow{row("", "q2", map[string]float64{"a": 1, "b": 1})}
	dir := writeReplayDir(t, train, test, "")
	if err := os.Remove(filepath.Join(dir, replayCandidatesV2)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, replayCandidates), []byte(cands), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := LoadReplay(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := set.Model("a")
	if a.SizeB != 0 {
		t.Fatalf("empty size read as %gB", a.SizeB)
	}
	if _, known := AnswerLatencySeconds(a, test[0]); known {
		t.Fatal("a model of unknown size got a latency")
	}
	rep, err := Replay(set, ReplayOptions{Policies: []string{"fixed:a", "fixed:b"}})
	if err != nil {
		t.Fatal(err)
	}
	fa, _ := rep.Find("fixed:a")
	fb, _ := rep.Find("fixed:b")
	if fa.LatencyUnknown != 1 || fa.LatencyS != 0 || fb.LatencyUnknown != 0 || fb.LatencyS != 15 {
		t.Fatalf("fixed:a latency %v (unknown %d), fixed:b %v (unknown %d)", fa.LatencyS, fa.LatencyUnknown, fb.LatencyS, fb.LatencyUnknown)
	}
	// A router must not see the unknown model as fast: it is charged the
	// slowest known latency.
	for _, c := range newAnswerEstimates(set.Models, set.Train, set.estimateChoice()).candidates(set.Models, test[0]) {
		if c.Latency != 15 {
			t.Fatalf("candidate %s latency %v, want 15", c.Name, c.Latency)
		}
	}
}

func TestEvalReplayPerQueryCostsUsedWhenPresent(t *testing.T) {
	m := ReplayModel{Name: "a", PriceIn: 2, PriceOut: 4}
	q := strings.Repeat("x", 400) // 100 proxy input tokens
	cases := []struct {
		name   string
		row    ReplayRow
		want   float64
		source string
	}{
		{"recorded", ReplayRow{Question: q, CostUSD: map[string]float64{"a": 0.5}, TokensIn: map[string]float64{"a": 1}}, 0.5, CostRecorded},
		{"tokens", ReplayRow{Question: q, TokensIn: map[string]float64{"a": 1000}, TokensOut: map[string]float64{"a": 10}}, (2*1000 + 4*10) / 1e6, CostTokens},
		{"output tokens only", ReplayRow{Question: q, TokensOut: map[string]float64{"a": 10}}, (2*100 + 4*10) / 1e6, CostTokens},
		{"other model's cost", ReplayRow{Question: q, CostUSD: map[string]float64{"b": 9}}, (2*100 + 4*256) / 1e6, CostProxy},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, src := AnswerCostUSD(m, tc.row)
			if math.Abs(got-tc.want) > 1e-15 || src != tc.source {
				t.Fatalf("%v from %s, want %v from %s", got, src, tc.want, tc.source)
			}
		})
	}
	// And in a replay: the fixed policy's mean cost is the recorded one.
	train := []ReplayRow{row("", "q1", map[string]float64{"a": 1, "b": 1})}
	test := []ReplayRow{
		{Question: "q2", Scores: map[string]float64{"a": 1, "b": 1}, CostUSD: map[string]float64{"a": 0.002, "b": 0.01}},
		{Question: "q3", Scores: map[string]float64{"a": 1, "b": 1}, CostUSD: map[string]float64{"a": 0.004, "b": 0.01}},
	}
	set, err := LoadReplay(writeReplayDir(t, train, test, twoModels))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Replay(set, ReplayOptions{Policies: []string{"fixed:a"}})
	if err != nil {
		t.Fatal(err)
	}
	if fa, _ := rep.Find("fixed:a"); math.Abs(fa.CostPer1k-3) > 1e-9 {
		t.Fatalf("fixed:a costs %v per 1k, want 3 (the recorded 0.002 and 0.004)", fa.CostPer1k)
	}
	if notes := strings.Join(rep.Notes, "\n"); !strings.Contains(notes, "recorded 4") {
		t.Fatalf("notes do not count the recorded costs: %s", notes)
	}
}

// TestEvalReplayUnpricedModelsCostWhatTheyRecorded: a pool may record what
// every answer cost and give no prices. Such a model loads, is charged
// what each answer recorded, and "cheapest" is the model that cost least
// on train, not the one with the lowest (here absent) price.
func TestEvalReplayUnpricedModelsCostWhatTheyRecorded(t *testing.T) {
	rec := func(q string, a, b float64) ReplayRow {
		return ReplayRow{Question: q, Scores: map[string]float64{"a": 1, "b": 0}, CostUSD: map[string]float64{"a": a, "b": b}}
	}
	train := []ReplayRow{rec("q1", 0.004, 0.001), rec("q2", 0.002, 0.001)}
	test := []ReplayRow{rec("q3", 0.003, 0.002)}
	set, err := LoadReplay(writeReplayDir(t, train, test, `[{"name":"a"},{"name":"b","input_price":0,"output_price":0}]`))
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := set.Model("a"); !a.Unpriced {
		t.Fatalf("a: %+v, want it unpriced", a)
	}
	rep, err := Replay(set, ReplayOptions{Policies: []string{SinglesName, CheapestName}})
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := rep.Find("fixed:a"); math.Abs(a.CostUSD-0.003) > 1e-12 {
		t.Fatalf("fixed:a cost %v, want its recorded 0.003", a.CostUSD)
	}
	if c, _ := rep.Find(CheapestName); c.Calls["b"] != 1 {
		t.Fatalf("cheapest chose %v, want b (0.001 on train against a's 0.003)", c.Calls)
	}
}

func TestEvalReplayCheapestIsCheapestOnTrain(t *testing.T) {
	low := ReplayModel{Name: "low", PriceIn: 0.1, PriceOut: 0.1}
	high := ReplayModel{Name: "high", PriceIn: 1, PriceOut: 1}
	q := ReplayRow{Question: "q"}
	cases := []struct {
		name  string
		train []ReplayRow
		want  string
	}{
		{"no costs recorded: the lower price", []ReplayRow{q}, "low"},
		{"recorded costs decide", []ReplayRow{{Question: "q", CostUSD: map[string]float64{"low": 0.02, "high": 0.01}}}, "high"},
		{"recorded output tokens decide", []ReplayRow{{Question: "q", TokensOut: map[string]float64{"low": 100000, "high": 10}}}, "high"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := cheapestOnTrain([]ReplayModel{high, low}, tc.train); got != tc.want {
				t.Fatalf("cheapest %s, want %s", got, tc.want)
			}
		})
	}
}

// TestEvalReplayRefusesATestSplitAllInTrain: when every test row asks a
// question train asks too, nothing is left to score; the loader says so
// instead of reporting NaN for every policy.
func TestEvalReplayRefusesATestSplitAllInTrain(t *testing.T) {
	rows := []ReplayRow{row("a", "q1", map[string]float64{"a": 1, "b": 0}), row("b", "q2", map[string]float64{"a": 0, "b": 1})}
	_, err := LoadReplay(writeReplayDir(t, rows, rows, twoModels))
	if err == nil || !strings.Contains(err.Error(), "every test row (2) asks a question train asks too") {
		t.Fatalf("error %v", err)
	}
}
