package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalConvertThenReplay(t *testing.T) {
	dir := t.TempDir()
	outcomes, models, pool := filepath.Join(dir, "outcomes.csv"), filepath.Join(dir, "models.csv"), filepath.Join(dir, "pool")
	var b strings.Builder
	b.WriteString("id,split,question,model,score,cost_usd\n")
	for i, q := range []string{"add two numbers", "name a capital", "add three numbers", "name a river"} {
		split := "train"
		if i >= 2 {
			split = "test"
		}
		id := string(rune('a' + i))
		b.WriteString(id + "," + split + "," + q + ",small,1,0.001\n")
		b.WriteString(id + "," + split + "," + q + ",big,1,0.01\n")
	}
	writeFile(t, outcomes, b.String())
	writeFile(t, models, "name,input_price,output_price,size\nsmall,0.1,0.1,8B\nbig,1,1,\n")
	code, stdout, stderr := runSub(t, newEvalCommand, "", "convert", "--outcomes", outcomes, "--candidates", models, "--out", pool)
	if code != 0 || !strings.Contains(stdout, "2 train and 2 test rows over 2 candidates") {
		t.Fatalf("convert: exit %d, %s %s", code, stdout, stderr)
	}
	code, stdout, stderr = runSub(t, newEvalCommand, "", "--replay", pool, "--policy", "fixed:small,fixed:big")
	if code != 0 || !strings.Contains(stdout, "recorded 4") {
		t.Fatalf("replay of the converted pool: exit %d\n%s%s", code, stdout, stderr)
	}
	// fixed:big costs the recorded 0.01 USD a task: 10 USD per 1,000.
	if !strings.Contains(stdout, "10.0000") {
		t.Fatalf("recorded costs not used:\n%s", stdout)
	}
}

func TestEvalReplayRefusesIncompleteUnlessAsked(t *testing.T) {
	dir := t.TempDir()
	outcomes, models, pool := filepath.Join(dir, "outcomes.csv"), filepath.Join(dir, "models.csv"), filepath.Join(dir, "pool")
	writeFile(t, outcomes, "id,split,question,model,score\n"+
		"a,train,q one,small,1\na,train,q one,big,1\n"+
		"b,train,q two,small,1\n"+
		"c,test,q three,small,0\nc,test,q three,big,1\n")
	writeFile(t, models, "name,input_price,output_price\nsmall,0.1,0.1\nbig,1,1\n")
	if code, _, stderr := runSub(t, newEvalCommand, "", "convert", "--outcomes", outcomes, "--candidates", models, "--out", pool); code != 0 {
		t.Fatalf("convert: %s", stderr)
	}
	code, _, stderr := runSub(t, newEvalCommand, "", "--replay", pool, "--policy", "fixed:big")
	if code != exitUsage || !strings.Contains(stderr, "1 of 3 rows lack a score") || !strings.Contains(stderr, "b in scores_train.json (missing big)") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr := runSub(t, newEvalCommand, "", "--replay", pool, "--policy", "fixed:big", "--drop-incomplete")
	if code != 0 || !strings.Contains(stdout, "1 row lacking a score for some candidate was dropped") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestEvalConvertKeepsAModelWithoutPrices: empty price cells leave the
// model unpriced in candidates.json (not free), and the replay charges
// what it recorded.
func TestEvalConvertKeepsAModelWithoutPrices(t *testing.T) {
	pool := convertedPool(t, t.TempDir(), "id,split,question,model,score,cost_usd\n"+
		"a,train,q one,small,1,0.001\na,train,q one,big,1,0.01\n"+
		"b,test,q two,small,0,0.001\nb,test,q two,big,1,0.01\n",
		"name,input_price,output_price\nsmall,0.1,0.1\nbig,,\n")
	data, err := os.ReadFile(filepath.Join(pool, "candidates.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cands []map[string]any
	if err := json.Unmarshal(data, &cands); err != nil {
		t.Fatal(err)
	}
	for _, c := range cands {
		if _, priced := c["input_price"]; priced == (c["name"] == "big") {
			t.Fatalf("candidates.json: %s", data)
		}
	}
	code, stdout, stderr := runSub(t, newEvalCommand, "", "--replay", pool, "--policy", "fixed:big")
	if code != 0 || !strings.Contains(stdout, "10.0000") {
		t.Fatalf("replay: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestEvalConvertDocExample runs docs/replay-format.md's example as
// written: one train question is too few to choose operating points, so
// the replay reports its sweeps without them and says why.
func TestEvalConvertDocExample(t *testing.T) {
	dir := t.TempDir()
	outcomes, models, pool := filepath.Join(dir, "outcomes.csv"), filepath.Join(dir, "models.csv"), filepath.Join(dir, "pool")
	writeFile(t, outcomes, `id,split,question,task,model,score,cost_usd,latency_s,tokens_in,tokens_out
q1,train,What is 2+2?,math,small-8b,1,0.00002,1.1,12,30
q1,train,What is 2+2?,math,big-70b,1,0.0002,3.0,12,28
q2,test,Name the capital of Peru.,qa,small-8b,0,,,,
q2,test,Name the capital of Peru.,qa,big-70b,1,,,,
`)
	writeFile(t, models, "name,input_price,output_price,size,context\nsmall-8b,0.2,0.2,8B,131072\nbig-70b,0.9,0.9,,131072\n")
	if code, _, stderr := runSub(t, newEvalCommand, "", "convert", "--outcomes", outcomes, "--candidates", models, "--out", pool); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runSub(t, newEvalCommand, "", "--replay", pool)
	if code != 0 || !strings.Contains(stdout, "no operating point: the train split (1 row) is too small") {
		t.Fatalf("replay: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, router := range []string{"knn", "lr", "blend", "mf"} {
		if !strings.Contains(stdout, router+": best single model") {
			t.Errorf("no sweep summary of %s:\n%s", router, stdout)
		}
	}
}

// TestEvalConvertRefusals: convert refuses what the replay would refuse,
// and writes nothing.
func TestEvalConvertRefusals(t *testing.T) {
	head := "id,split,question,model,score\n"
	cases := []struct {
		name, outcomes, models, want string
	}{
		{"scored model not listed", head + "a,train,q one,small,1\na,train,q one,ghost,1\nb,test,q two,small,0\nb,test,q two,ghost,1\n",
			"name,input_price,output_price\nsmall,0.1,0.1\n", `model "ghost" is scored but not listed in`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			outcomes, models, pool := filepath.Join(dir, "outcomes.csv"), filepath.Join(dir, "models.csv"), filepath.Join(dir, "pool")
			writeFile(t, outcomes, tc.outcomes)
			writeFile(t, models, tc.models)
			code, _, stderr := runSub(t, newEvalCommand, "", "convert", "--outcomes", outcomes, "--candidates", models, "--out", pool)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q, want %q", code, stderr, tc.want)
			}
			if _, err := os.Stat(pool); !os.IsNotExist(err) {
				t.Fatalf("%s written: %v", pool, err)
			}
		})
	}
}

// TestEvalConvertWithoutTestRows: outcomes with no test rows make a pool
// scored with --split validation; a test split an earlier conversion left
// in the directory is removed, and a replay of the test split says what to
// do instead of failing to open a file.
func TestEvalConvertWithoutTestRows(t *testing.T) {
	dir := t.TempDir()
	outcomes, models, pool := filepath.Join(dir, "outcomes.csv"), filepath.Join(dir, "models.csv"), filepath.Join(dir, "pool")
	var b strings.Builder
	b.WriteString("id,split,question,model,score\n")
	for i := range 40 {
		fmt.Fprintf(&b, "q%d,train,question number %d,small,%d\nq%d,train,question number %d,big,1\n", i, i, i%2, i, i)
	}
	writeFile(t, outcomes, b.String())
	writeFile(t, models, "name,input_price,output_price\nsmall,0.1,0.1\nbig,1,1\n")
	writeFile(t, filepath.Join(pool, "scores_test.json"), `[{"question":"stale","scores":{"small":1,"big":1}}]`)
	code, stdout, stderr := runSub(t, newEvalCommand, "", "convert", "--outcomes", outcomes, "--candidates", models, "--out", pool)
	if code != 0 || !strings.Contains(stdout, "40 train and 0 test rows") || !strings.Contains(stdout, "--split validation") {
		t.Fatalf("convert: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(pool, "scores_test.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the earlier test split is still there: %v", err)
	}
	code, stdout, stderr = runSub(t, newEvalCommand, "", "--replay", pool, "--policy", "fixed:big")
	if code == 0 || !strings.Contains(stderr, "no scores_test.json") || !strings.Contains(stderr, "--split validation") {
		t.Fatalf("replay of the test split: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runSub(t, newEvalCommand, "", "--replay", pool, "--split", "validation", "--policy", "fixed:big")
	if code != 0 || !strings.Contains(stdout, "(validation split)") {
		t.Fatalf("replay of the validation split: exit %d\n%s%s", code, stdout, stderr)
	}
}

func TestEvalConvertRefusesOutcomesWithoutTrainRows(t *testing.T) {
	dir := t.TempDir()
	outcomes, models := filepath.Join(dir, "outcomes.csv"), filepath.Join(dir, "models.csv")
	writeFile(t, outcomes, "id,split,question,model,score\na,test,q,small,1\na,test,q,big,1\n")
	writeFile(t, models, "name,input_price,output_price\nsmall,0.1,0.1\nbig,1,1\n")
	code, stdout, stderr := runSub(t, newEvalCommand, "", "convert", "--outcomes", outcomes, "--candidates", models, "--out", filepath.Join(dir, "pool"))
	if code == 0 || !strings.Contains(stderr, "no train rows") {
		t.Fatalf("convert: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "pool")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused conversion wrote %s: %v", filepath.Join(dir, "pool"), err)
	}
}

// --preference saved reads P from the preferences file beside the config,
// as the desktop's sliders saved it (Preferences.Vector).
func TestEvalSavedPreference(t *testing.T) {
	dir := t.TempDir()
	pool := convertedPool(t, dir, "id,split,question,model,score\n"+
		"a,train,q one,small,1\na,train,q one,big,1\n"+
		"c,test,q three,small,0\nc,test,q three,big,1\n",
		"name,input_price,output_price\nsmall,0.1,0.1\nbig,1,1\n")
	config := filepath.Join(dir, "conf", "config.json")
	writeFile(t, config, `{"mcpServers": {}}`)
	args := []string{"--replay", pool, "--policy", "fixed:small,fixed:big", "--preference", "saved"}
	code, stdout, stderr := runSub(t, newEvalCommand, config, args...)
	if code != 0 || !strings.Contains(stdout, "(P: outcome 1, cost 0.5, latency 0.5)") {
		t.Fatalf("without a preferences file, want the defaults' vector: exit %d\n%s%s", code, stdout, stderr)
	}
	writeFile(t, filepath.Join(dir, "conf", "preferences.json"),
		`{"privacy": "any", "cost_weight": 0.8, "latency_weight": 0.2, "models": {"big": "prefer", "small": "avoid"}}`)
	code, stdout, stderr = runSub(t, newEvalCommand, config, args...)
	if code != 0 || !strings.Contains(stdout, "(P: outcome 1, cost 0.8, latency 0.2, tools big 1, small 0)") {
		t.Fatalf("want the saved vector: exit %d\n%s%s", code, stdout, stderr)
	}
	writeFile(t, filepath.Join(dir, "conf", "preferences.json"), `{"cost_weight": "high"}`)
	if code, _, stderr := runSub(t, newEvalCommand, config, args...); code == 0 || !strings.Contains(stderr, "--preference saved") {
		t.Fatalf("an invalid preferences file: exit %d, %s", code, stderr)
	}
}

// convertedPool writes outcomes and models (CSV) in dir, converts them
// with eval convert and returns the replay pool's folder.
func convertedPool(t *testing.T, dir, outcomes, models string) string {
	t.Helper()
	outcomesFile, modelsFile, pool := filepath.Join(dir, "outcomes.csv"), filepath.Join(dir, "models.csv"), filepath.Join(dir, "pool")
	writeFile(t, outcomesFile, outcomes)
	writeFile(t, modelsFile, models)
	if code, _, stderr := runSub(t, newEvalCommand, "", "convert", "--outcomes", outcomesFile, "--candidates", modelsFile, "--out", pool); code != 0 {
		t.Fatalf("convert: %s", stderr)
	}
	return pool
}
