package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/eval"
)

// smallPool writes a replay directory of n train and n test questions over
// two priced models, "small" solving the even ones and "big" all, and
// returns it.
func smallPool(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	rows := func(split string) string {
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id":"%s-%d","question":"%s question number %d","scores":{"small":%d,"big":1}}`, split, i, split, i, 1-i%2)
		}
		return b.String() + "]"
	}
	writeFile(t, filepath.Join(dir, "scores_train.json"), rows("train"))
	writeFile(t, filepath.Join(dir, "scores_test.json"), rows("test"))
	writeFile(t, filepath.Join(dir, "candidates.json"),
		`[{"name":"small","input_price":0.1,"output_price":0.1,"size":"8B"},{"name":"big","input_price":1,"output_price":1,"size":"70B"}]`)
	return dir
}

func TestEvalReplayValidationNeedsNoTestFile(t *testing.T) {
	cases := []struct {
		name string
		test string // scores_test.json; "-": removed
	}{
		{"missing", "-"},
		{"empty", "[]"},
		{"not JSON", "not json"},
		{"incomplete", `[{"question":"q","scores":{"small":1}}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pool := smallPool(t, 40)
			path := filepath.Join(pool, "scores_test.json")
			if tc.test == "-" {
				if err := os.Remove(path); err != nil {
					t.Fatal(err)
				}
			} else {
				writeFile(t, path, tc.test)
			}
			code, stdout, stderr := runSub(t, newEvalCommand, "", "--replay", pool, "--split", "validation", "--policy", "singles")
			if code != 0 || !strings.Contains(stdout, "(validation split)") {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// Off a terminal (a log, a pipe), a replay writes on stderr where it is:
// each stage's first line (0 of its steps) and its last (all of them) at
// least; stdout holds the report alone.
func TestEvalReplayNamesItsStagesInALog(t *testing.T) {
	pool := smallPool(t, 40)
	code, stdout, stderr := runSub(t, newEvalCommand, "", "--replay", pool, "--policy", "singles,knn", "--cost-weights", "0,0.5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	stages := map[string]int{"training routers": 1, "scoring policies": 4, "choosing operating points": 5}
	for stage, steps := range stages {
		for _, want := range []string{fmt.Sprintf("replay: %s: 0/%d\n", stage, steps), fmt.Sprintf("replay: %s: %d/%d\n", stage, steps, steps)} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
	}
	if strings.Contains(stdout, "replay:") {
		t.Errorf("stdout carries the stages: %s", stdout)
	}
}

// TestEvalReplayReportsEachCostWeightOnce: a weight given twice, or as -0
// beside 0, is one sweep point and one row.
func TestEvalReplayReportsEachCostWeightOnce(t *testing.T) {
	pool := smallPool(t, 40)
	code, stdout, stderr := runSub(t, newEvalCommand, "", "--replay", pool, "--policy", "knn", "--cost-weights", "0,0.5,-0,0.50,0.5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep eval.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range rep.Policies {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, ","); got != "knn@0,knn@0.5" {
		t.Fatalf("policies %s, want knn@0,knn@0.5", got)
	}
}

// TestEvalOutputPrintsTheReportWhenThePageFails: a page that cannot be
// written at the end (its directory went away during the run) fails the
// command only after the report is printed.
func TestEvalOutputPrintsTheReportWhenThePageFails(t *testing.T) {
	rep := &eval.Report{Kind: "replay", Source: "pool", Tasks: 1, Policies: []eval.PolicyResult{{Name: "fixed:big", Tasks: 1, Accuracy: 1}}}
	cases := []struct {
		name string
		json bool
		want string
	}{
		{"text", false, "fixed:big"},
		{"json", true, `"name": "fixed:big"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			f := &evalFlags{htmlPath: filepath.Join(dir, "r.html"), asJSON: tc.json}
			if err := f.checkOutputs(); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(dir); err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			err := f.output(&globals{stdio: Stdio{Out: &out}}, rep)
			if err == nil || !strings.Contains(err.Error(), "write html report") || !strings.Contains(out.String(), tc.want) {
				t.Fatalf("err %v, printed:\n%s", err, out.String())
			}
		})
	}
}

func TestEvalReplayReportsEachPolicyOnce(t *testing.T) {
	pool := smallPool(t, 40)
	code, stdout, stderr := runSub(t, newEvalCommand, "", "--replay", pool, "--policy", "knn,singles,knn,cheapest,fixed:big,cheapest",
		"--cost-weights", "0", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep eval.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, p := range rep.Policies {
		seen[p.Name]++
	}
	for _, name := range []string{"knn@0", "fixed:big", "cheapest"} {
		if seen[name] != 1 {
			t.Errorf("%s has %d rows, want 1 (rows %v)", name, seen[name], seen)
		}
	}
}
