package eval

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/policies"
)

// TestEvalReplayQueriesFileGivesFamiliesAndChoices: a v1 set's queries file
// gives each row its family and choices, joined on the question; a row's
// own keep, and the routers read the choices after the question.
func TestEvalReplayQueriesFileGivesFamiliesAndChoices(t *testing.T) {
	scores := map[string]float64{"a": 1, "b": 0}
	own := ReplayRow{Question: "q3", Task: "own", Choices: "(x) (y)", Scores: scores}
	dir := writeReplayDir(t, []ReplayRow{{Question: "q1", Scores: scores}, {Question: "q2", Scores: scores}, own},
		[]ReplayRow{{Question: "t1", Scores: scores}}, twoModels)
	queries := `{"task_name":"mmlu","query":"q1","choices":"['x', 'y']"}
{"task_name":"gsm8k","query":"q2","choices":null}
{"task_name":"file","query":"q3","choices":"file's"}
`
	if err := os.WriteFile(filepath.Join(dir, replayTrainTasks), []byte(queries), 0o644); err != nil {
		t.Fatal(err)
	}
	test := `{"task_name":"arc","query":"t1","choices":{"text":["x","y"],"label":["A","B"]}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, replayTestTasks), []byte(test), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := LoadReplay(dir)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name              string
		row               ReplayRow
		task, choices, rt string
	}{
		{"choices as a string", set.Train[0], "mmlu", "['x', 'y']", "q1\n['x', 'y']"},
		{"no choices", set.Train[1], "gsm8k", "", "q2"},
		{"the row's own", set.Train[2], "own", "(x) (y)", "q3\n(x) (y)"},
		{"choices as JSON", set.Test[0], "arc", `{"text":["x","y"],"label":["A","B"]}`, "t1\n" + `{"text":["x","y"],"label":["A","B"]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.row.Task != tc.task || string(tc.row.Choices) != tc.choices || tc.row.RouteText() != tc.rt {
				t.Fatalf("task %q choices %q route text %q; want %q, %q, %q", tc.row.Task, tc.row.Choices, tc.row.RouteText(), tc.task, tc.choices, tc.rt)
			}
		})
	}
	examples := TrainExamples(set.Train)
	if examples[0].Question != "q1\n['x', 'y']" || examples[1].Question != "q2" {
		t.Fatalf("the routers learn from %q and %q, want each question with its choices", examples[0].Question, examples[1].Question)
	}
}

// choiceFormSet is a pool where the options decide: one model answers every
// question whose options come as a list and fails the others, the other
// model the reverse, and the stems say nothing about which (the form
// follows a hash of the row's id; no test stem's number is in train).
func choiceFormSet(t *testing.T) *ReplaySet {
	t.Helper()
	mk := func(split string, from, n int) []ReplayRow {
		rows := make([]ReplayRow, n)
		for k := range rows {
			i := from + k
			r := ReplayRow{ID: fmt.Sprintf("%s%d", split, i), Question: fmt.Sprintf("Which of these holds for item %d?", i)}
			h := fnv.New32a()
			h.Write([]byte(r.ID))
			if h.Sum32()%2 == 0 {
				r.Choices, r.Scores = policies.Choices(fmt.Sprintf("['red %d', 'blue', 'green', 'grey']", i)), map[string]float64{"a": 1, "b": 0}
			} else {
				r.Choices, r.Scores = policies.Choices(fmt.Sprintf("{'text': ['red %d', 'blue', 'green', 'grey'], 'label': ['A', 'B', 'C', 'D']}", i)), map[string]float64{"a": 0, "b": 1}
			}
			rows[k] = r
		}
		return rows
	}
	cands := `[{"name":"a","input_price":1,"output_price":1,"size":"7B"},{"name":"b","input_price":1,"output_price":1,"size":"7B"}]`
	set, err := LoadReplay(writeReplayDir(t, mk("train", 0, 120), mk("test", 1000, 40), cands))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestEvalReplayRoutersReadTheChoices: on choiceFormSet every router
// answers (nearly) every test question with the model that gets it right;
// reading the stems alone, none can do better than half.
func TestEvalReplayRoutersReadTheChoices(t *testing.T) {
	set := choiceFormSet(t)
	for _, router := range RouterNames {
		t.Run(router, func(t *testing.T) {
			rep, err := Replay(set, ReplayOptions{Policies: []string{router}, CostWeights: []float64{0}})
			if err != nil {
				t.Fatal(err)
			}
			p, ok := rep.Find(routerPolicyName(router, 0))
			if !ok {
				t.Fatalf("no result for %s@0", router)
			}
			if p.Accuracy < 0.9 {
				t.Fatalf("%s@0 scores %.3f where the choices name the right model, want at least 0.9", router, p.Accuracy)
			}
		})
	}
}

// TestEvalReplayRowChoicesAsAList: a v2 row may give its choices as a
// list; the routers read it as its JSON.
func TestEvalReplayRowChoicesAsAList(t *testing.T) {
	dir := writeReplayDir(t, nil, nil, twoModels)
	rows := `[{"question":"Q1","choices":["x", "y"],"scores":{"a":1,"b":0}},{"question":"Q2","choices":null,"scores":{"a":0,"b":1}}]`
	for name, prefix := range map[string]string{replayTrainScores: "train ", replayTestScores: "test "} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.ReplaceAll(rows, "Q", prefix)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set, err := LoadReplay(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Train[0].RouteText(); got != "train 1\n[\"x\",\"y\"]" {
		t.Fatalf("a list of choices read as %q", got)
	}
	if got := set.Test[1].RouteText(); got != "test 2" {
		t.Fatalf("null choices read as %q", got)
	}
}
