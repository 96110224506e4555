package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/eval"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/internal/testenv"
)

func routingReplayDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(testenv.RepoRoot(t), "..", "shared", "data", "routing", "llmrouter-nim9")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the routing replay set is missing at %s: %v", dir, err)
	}
	return dir
}

func TestEvalCommandUsageErrors(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	dir := t.TempDir()
	tasks := filepath.Join(dir, "tasks.jsonl")
	writeFile(t, tasks, `{"id":"1","question":"2+2?","answer":"4"}`+"\n"+`{"id":"2","question":"3+3?"}`+"\n")
	cfg := filepath.Join(dir, "toolhub.json")
	writeFile(t, cfg, `{"mcpServers": {}}`)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"nothing to evaluate", nil, "exactly one of --tasks FILE or --replay DIR"},
		{"both sources", []string{"--tasks", tasks, "--replay", dir}, "exactly one of"},
		{"live without policies", []string{"--tasks", tasks}, "--tasks needs --policy"},
		{"bad mode", []string{"--tasks", tasks, "--policy", "cheapest", "--mode", "chat"}, `--mode "chat"`},
		{"bad cost weights", []string{"--replay", dir, "--cost-weights", "0,x"}, "--cost-weights"},
		{"bad preference", []string{"--replay", dir, "--preference", "1,1"}, "three weights"},
		{"NaN cost weight", []string{"--replay", dir, "--cost-weights", "0,NaN"}, `"NaN" is not a finite non-negative number`},
		{"infinite cost weight", []string{"--replay", dir, "--cost-weights", "Inf"}, `--cost-weights "Inf"`},
		{"negative cost weight", []string{"--replay", dir, "--cost-weights", "0.1,-0.1"}, `"-0.1" is not a finite non-negative number`},
		{"negative latency weight", []string{"--replay", dir, "--latency-weight", "-1"}, "--latency-weight -1: want a finite non-negative number"},
		{"NaN latency weight", []string{"--replay", dir, "--latency-weight", "NaN"}, "--latency-weight NaN"},
		{"NaN in the preference", []string{"--replay", dir, "--preference", "1,NaN,1"}, `--preference "1,NaN,1": "NaN"`},
		{"infinite preference", []string{"--replay", dir, "--preference", "1,1,+Inf"}, `"+Inf" is not a finite`},
		{"NaN tolerance", []string{"--replay", dir, "--tolerance", "NaN"}, "--tolerance NaN"},
		{"infinite l2", []string{"--replay", dir, "--l2", "Inf"}, "--l2 +Inf: want a finite positive number"},
		{"base outside the policies", []string{"--tasks", tasks, "--policy", "cheapest", "--base", "strongest"}, "--base"},
		{"bad repeat", []string{"--tasks", tasks, "--policy", "cheapest", "--repeat", "0"}, "--repeat"},
		{"negative parallel", []string{"--replay", dir, "--parallel", "-1"}, "--parallel must not be negative"},
		{"unknown flag", []string{"--replay", dir, "--frobnicate"}, "frobnicate"},
		{"live flags with a replay", []string{"--replay", dir, "--repeat", "3", "--judge", "gpt5"},
			"--judge, --repeat: not read by a replay evaluation (it belongs to --tasks FILE)"},
		{"replay flags with a live eval", []string{"--tasks", tasks, "--policy", "cheapest", "--split", "validation"},
			"--split: not read by a live evaluation (it belongs to --replay DIR)"},
		// The output is checked before the set is read (there is none here).
		{"html in a missing directory", []string{"--replay", filepath.Join(dir, "none"), "--html", filepath.Join(dir, "none", "r.html")},
			"--html " + filepath.Join(dir, "none", "r.html") + ": no directory " + filepath.Join(dir, "none")},
		{"html is a directory", []string{"--replay", filepath.Join(dir, "none"), "--html", dir}, "--html " + dir + ": is a directory"},
		{"journal in a missing directory", []string{"--tasks", tasks, "--policy", "cheapest", "--journal", filepath.Join(dir, "none", "j.jsonl")},
			"--journal " + filepath.Join(dir, "none", "j.jsonl") + ": no directory"},
		{"bad task file says where", []string{"--tasks", tasks, "--policy", "cheapest"}, tasks + `:2: missing "answer"`},
		{"missing replay dir", []string{"--replay", filepath.Join(dir, "none")}, "there is no such folder"},
		{"replay dir without scores", []string{"--replay", dir}, "is not a replay set: it has no scores_train.json"},
		{"unknown replay policy", []string{"--replay", routingReplayDir(t), "--policy", "smartest"}, `unknown replay policy "smartest"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runSub(t, newEvalCommand, cfg, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
		})
	}
}

func TestEvalCommandReplayJSONAndHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "report.html")
	code, stdout, stderr := runSub(t, newEvalCommand, "", "--replay", routingReplayDir(t),
		"--policy", "singles,oracle,knn", "--cost-weights", "0,1", "--json", "--html", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep eval.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not a report: %v\n%s", err, stdout)
	}
	oracle, ok := rep.Find("oracle")
	if !ok || rep.Tasks != 381 || len(rep.Policies) != 9+1+2 || oracle.Accuracy < 0.7495 || oracle.Accuracy > 0.7505 {
		t.Fatalf("tasks %d, %d policies, oracle %+v", rep.Tasks, len(rep.Policies), oracle)
	}
	if !strings.Contains(rep.Command, "--cost-weights=0,1") || strings.Contains(rep.Command, "--json") {
		t.Fatalf("reproducing command %q", rep.Command)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), `<svg id="accuracy-cost"`) {
		t.Fatalf("html report: %v", err)
	}
}

func TestEvalCommandLiveStoresRunsAndResumes(t *testing.T) {
	orch := scriptedmodel.New()
	defer orch.Close()
	expert := scriptedmodel.New(scriptedmodel.RawTextReply(`\boxed{4}`).WithUsage(100, 5))
	expert.SetLoop(true)
	defer expert.Close()
	cfg := modelsConfig(t, orch, expert)
	tasks := filepath.Join(t.TempDir(), "tasks.jsonl")
	writeFile(t, tasks, `{"id":"a","question":"2+2?","answer":"4"}`+"\n"+`{"id":"b","question":"1+2?","answer":"3"}`+"\n")
	journal := filepath.Join(t.TempDir(), "journal.jsonl")
	args := []string{"--tasks", tasks, "--policy", "fixed:big", "--repeat", "2", "--journal", journal, "--json"}
	code, stdout, stderr := runSub(t, newEvalCommand, cfg, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep eval.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not a report: %v\n%s", err, stdout)
	}
	p, _ := rep.Find("fixed:big")
	if p.Tasks != 4 || p.Accuracy != 0.5 || p.Calls["big"] != 1 || p.CostPer1k <= 0 {
		t.Fatalf("result %+v", p)
	}
	calls := len(expert.Requests())
	code, stdout, stderr = runSub(t, newEvalCommand, cfg, args...)
	if code != 0 || len(expert.Requests()) != calls {
		t.Fatalf("rerun: exit %d, %d new model calls: %s", code, len(expert.Requests())-calls, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.Policies[0].Tasks != 4 {
		t.Fatalf("resumed report %+v, %v", rep.Policies, err)
	}
	code, stdout, _ = runSub(t, newRunsCommand, cfg, "ls", "--json", "--limit", "0")
	var runs []json.RawMessage
	if code != 0 || json.Unmarshal([]byte(stdout), &runs) != nil || len(runs) != 4 {
		t.Fatalf("run log holds %d runs (exit %d), want 4", len(runs), code)
	}
}
