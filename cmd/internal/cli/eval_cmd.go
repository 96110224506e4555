package cli

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/eval"
	"github.com/toolhub/toolhub/policies"
)

// evalFlags are the flags of "toolhub eval".
type evalFlags struct {
	tasks, replay      string
	policies           string
	mode, judge, grade string
	repeat, parallel   int
	tolerance          float64
	journal            string
	costWeights        string
	latencyWeight      float64
	neighbours         int
	l2                 float64
	seed               uint64
	base, preference   string
	asJSON             bool
	htmlPath           string
	split              string
	dropIncomplete     bool
}

func newEvalCommand(g *globals) *cobra.Command {
	f := &evalFlags{}
	cmd := &cobra.Command{
		Use:   "eval (--tasks FILE.jsonl --policy P1,P2 | --replay DIR)",
		Short: "Measure policies: accuracy, cost, latency and tool use side by side",
		Long: `Evaluates routing policies and reports, per policy, accuracy, mean cost, mean
latency, calls per task per tool or model, and the preference reward of the
ToolOrchestra paper (Appendix L) against a base policy; "*" marks the Pareto
frontier of accuracy and cost.

Live eval (--tasks): every task of a JSONL file of {"id", "question",
"answer", ["domain"]} runs as a real episode with each policy (--repeat times),
graded by normalised exact match, then numeric tolerance for numeric answers,
then the LLM judge when --judge names a configured model. Runs are stored in
the run log like any run. Finished episodes are journaled (--journal; by
default under $XDG_DATA_HOME/toolhub/evals), so an interrupted eval resumes
when the same command is run again.

Replay eval (--replay): no model is called. Each task carries the recorded
score of every candidate model and, in format v2, what each answer cost and
took (docs/replay-format.md: scores_train.json, scores_test.json,
candidates.json or llm_candidates.json, queries_*.jsonl); a policy's choice
is answered from the record on the test split, with test questions that also
appear in train dropped. A row missing a score for some candidate is refused
unless --drop-incomplete; a candidate may leave out both prices when every
row records its cost_usd. Policies: singles (every fixed:MODEL), cheapest
(least cost on train), strongest (best on train), random, oracle,
per-task-best, and the learned routers knn, lr (per-model logistic
regression), blend (their mean) and mf (per-family mean scores weighed by a
task classifier, or a calibrated matrix-factorisation predictor averaged
with knn when no family is recorded), trained on the train split and swept
over --cost-weights. Each router's AIQ, APGR and CPT(50%) are measured on a
fixed grid of weights, and its operating point is chosen on the train split
routed out of fold: the most accurate weight within half the strongest
model's cost; the report ends with the one operating point chosen, the same
way, among the routers'. A question's answer options (choices), when the
set keeps them apart, are read by the routers with it. --split validation
scores on those rows instead (the test
split is then not read at all): choose settings there. Costs not recorded
use a token proxy; latency not recorded is modelled from model size (never
for a model of unknown size). Routers decide on costs and latencies
estimated from the train rows, never a scored row's recorded outcome (per
question from the most similar train questions when train's own out-of-fold
errors favour it over one figure per model; the report says which); the
answer they choose is charged what it recorded. Costs print in USD per 1,000
tasks. Stderr shows each stage as it runs (training routers, scoring
policies, choosing operating points): a bar on a terminal, else a line as a
stage starts, each tenth of it at most every 5 s, and its end; a set the size of
llmrouter-nim9 takes about a minute on two free cores, a pool of
36,000 questions and 11 models about 9 minutes and 5.3 GiB of memory. Choosing operating
points trains five folds, as many at once as there are processors (--parallel
sets it): each adds about 1.6 GiB on that pool, so with five or more
processors the run takes about 10 GiB, and with --parallel 1 about 3.7 GiB.

The knn, blend and mf policies also run live (--policy knn, or knn:PATH,
and so on; the cost and latency preferences set their weights): they learn from
recorded outcomes in $TOOLHUB_KNN_TRAINING, else
$XDG_DATA_HOME/toolhub/knn-train.jsonl: {"question", "scores": {model:
score}, ["task"], ["choices"]} lines (or a JSON array of them), or
"toolhub runs export" output of fixed:MODEL evals.

--json prints the report as JSON; --html FILE writes a self-contained page
with an accuracy-versus-cost chart. A flag marked "live eval:" below is
refused with --replay, and one marked "replay:" with --tasks.`,
		Example: `  toolhub eval --replay ../shared/data/routing/llmrouter-nim9
  toolhub eval --replay DIR --policy singles,oracle,knn --cost-weights 0,0.05,0.1 --html report.html
  toolhub eval --replay DIR --split validation --policy singles,knn,lr,blend,mf
  toolhub eval --tasks qa.jsonl --policy orchestrator,cheapest,knn --repeat 3 --parallel 2
  toolhub eval --tasks qa.jsonl --policy orchestrator:hle,orchestrator:frames
  toolhub eval --tasks qa.jsonl --policy strongest --judge gpt5 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pref, err := f.validate()
			if err != nil {
				return err
			}
			if pref, err = f.savedPreference(g, pref); err != nil {
				return err
			}
			if err := checkModeFlags(cmd.Flags(), f.replay != ""); err != nil {
				return err
			}
			if err := f.checkOutputs(); err != nil {
				return err
			}
			var rep *eval.Report
			if f.replay != "" {
				rep, err = f.runReplay(cmd, g, pref)
			} else {
				rep, err = f.runLive(cmd, g, pref)
			}
			if err != nil {
				return err
			}
			return f.output(g, rep)
		},
	}
	cmd.AddCommand(newEvalConvertCommand(g))
	fl := cmd.Flags()
	fl.StringVar(&f.tasks, "tasks", "", "live eval: JSONL file of {id, question, answer, [domain]}")
	fl.StringVar(&f.replay, "replay", "", "replay eval: directory of recorded outcomes (no model calls)")
	fl.StringVar(&f.policies, "policy", "", "comma-separated policies (replay default: all of them)")
	fl.StringVar(&f.mode, "mode", string(conductor.ModeResearch), "live eval: research or tools")
	fl.StringVar(&f.judge, "judge", "", "live eval: configured model that judges free-form answers")
	fl.StringVar(&f.grade, "grade", eval.MethodAuto, "live eval grading: auto, exact, numeric or judge")
	fl.Float64Var(&f.tolerance, "tolerance", eval.DefaultTolerance, "live eval: relative tolerance of numeric grading")
	fl.IntVar(&f.repeat, "repeat", 1, "live eval: episodes per task and policy")
	fl.IntVar(&f.parallel, "parallel", 0, "live eval: episodes run at once (default 1); replay: folds trained at once to choose operating points, each holding a router (default one per processor, at most 5)")
	fl.StringVar(&f.journal, "journal", "", "live eval: results journal to resume from (default: derived from the tasks file)")
	fl.StringVar(&f.costWeights, "cost-weights", "", "replay: cost weights to sweep the learned routers (knn, lr, blend, mf) over, each once (default 0,0.03,0.05,0.07,0.1,0.15,0.2,0.3,0.5,0.7,1)")
	fl.Float64Var(&f.latencyWeight, "latency-weight", 0, "replay: the learned routers' (knn, lr, blend, mf) latency weight")
	fl.IntVar(&f.neighbours, "k", 0, fmt.Sprintf("replay: knn neighbours (default: 4%% of the train rows, at most %d)", policies.DefaultKNNNeighbours))
	fl.Float64Var(&f.l2, "l2", policies.DefaultLogRegL2, "replay: lr L2 penalty per example")
	fl.Uint64Var(&f.seed, "seed", 1, "replay: seed of the random policy")
	fl.StringVar(&f.base, "base", "", "base policy of the reward (default: cheapest in replay, the first policy live)")
	fl.StringVar(&f.preference, "preference", "1,1,1", `reward preference weights: outcome,cost,latency, or "saved" for the vector of the saved preferences (the desktop's sliders; preferences.json beside the config)`)
	fl.StringVar(&f.split, "split", eval.SplitTest, "replay: rows to score: test, or validation (held out of train)")
	fl.BoolVar(&f.dropIncomplete, "drop-incomplete", false, "replay: leave out rows missing a score for some candidate (counted in the report) instead of refusing the set")
	fl.BoolVar(&f.asJSON, "json", false, "print the report as JSON")
	fl.StringVar(&f.htmlPath, "html", "", "also write the report as an HTML page with the chart")
	return cmd
}

// validate checks flag combinations; every problem is a usage error.
func (f *evalFlags) validate() (policies.PreferenceVector, error) {
	var pref policies.PreferenceVector
	switch {
	case (f.tasks == "") == (f.replay == ""):
		return pref, usageError("give exactly one of --tasks FILE or --replay DIR")
	case f.tasks != "" && f.policies == "":
		return pref, usageError("--tasks needs --policy (e.g. --policy orchestrator,cheapest)")
	case f.mode != string(conductor.ModeResearch) && f.mode != string(conductor.ModeTools):
		return pref, usageError("--mode %q: want research or tools", f.mode)
	case f.repeat < 1:
		return pref, usageError("--repeat must be at least 1")
	case f.parallel < 0:
		return pref, usageError("--parallel must not be negative")
	case !finiteNonNegative(f.tolerance):
		return pref, usageError("--tolerance %v: want a finite non-negative number", f.tolerance)
	case !finiteNonNegative(f.latencyWeight):
		return pref, usageError("--latency-weight %v: want a finite non-negative number", f.latencyWeight)
	case f.split != eval.SplitTest && f.split != eval.SplitValidation:
		return pref, usageError("--split %q: want test or validation", f.split)
	case f.neighbours < 0:
		return pref, usageError("--k must not be negative")
	case !(f.l2 > 0) || math.IsInf(f.l2, 0):
		return pref, usageError("--l2 %v: want a finite positive number", f.l2)
	case f.tasks != "" && f.base != "" && !slices.Contains(splitList(f.policies), f.base):
		return pref, usageError("--base %q must be one of the --policy list", f.base)
	}
	if _, err := f.weights(); err != nil {
		return pref, err
	}
	if f.preference == savedPreference {
		return pref, nil // read by savedPreference, once the flags are known good
	}
	w, err := parseFloats("--preference", f.preference)
	if err != nil {
		return pref, err
	}
	if len(w) != 3 {
		return pref, usageError("--preference %q: want three weights outcome,cost,latency", f.preference)
	}
	return policies.PreferenceVector{Outcome: w[0], Cost: w[1], Latency: w[2]}, nil
}

func (f *evalFlags) weights() ([]float64, error) {
	if f.costWeights == "" {
		return nil, nil
	}
	return parseFloats("--cost-weights", f.costWeights)
}

// parseFloats reads a comma-separated list of finite non-negative numbers;
// anything else (NaN, infinities, negatives) is a usage error naming it.
func parseFloats(flag, list string) ([]float64, error) {
	var out []float64
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !finiteNonNegative(v) {
			return nil, usageError("%s %q: %q is not a finite non-negative number (want numbers separated by commas)", flag, list, s)
		}
		out = append(out, math.Abs(v)) // -0 is 0
	}
	return out, nil
}

func finiteNonNegative(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }

func splitList(list string) []string {
	var out []string
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
