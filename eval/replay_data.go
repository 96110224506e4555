package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/toolhub/toolhub/policies"
)

// ReplayModel is a candidate model of a replay set with its price.
type ReplayModel struct {
	Name     string  `json:"name"`
	SizeB    float64 `json:"size_b,omitempty"`  // parameters, billions; 0: unknown
	PriceIn  float64 `json:"price_in"`          // USD per 1M input tokens
	PriceOut float64 `json:"price_out"`         // USD per 1M output tokens
	Context  int     `json:"context,omitempty"` // context window, tokens; 0: unknown
	// Unpriced is a model the candidates file gives no prices: every row
	// records what its answer cost (checkCosts), so no price is needed.
	Unpriced bool `json:"unpriced,omitempty"`
}

// ReplayRow is one recorded task: its text, its task family, the score in
// [0,1] every candidate obtained on it and, when the set records them (v2),
// what each answer cost, how long it took and its token counts.
type ReplayRow struct {
	ID       string `json:"id,omitempty"`
	Question string `json:"question"`
	// Choices are the answer options the models were shown with the
	// question, when the set keeps them apart from it (the llmrouter
	// layout's queries files do). Routers read them after the question
	// (RouteText); the cost proxy, the folds and the test rows dropped as
	// also in train go by the question alone.
	Choices   policies.Choices   `json:"choices,omitempty"`
	Task      string             `json:"task,omitempty"`
	Scores    map[string]float64 `json:"scores"`
	CostUSD   map[string]float64 `json:"cost_usd,omitempty"`
	LatencyS  map[string]float64 `json:"latency_s,omitempty"`
	TokensIn  map[string]float64 `json:"tokens_in,omitempty"`
	TokensOut map[string]float64 `json:"tokens_out,omitempty"`
}

// RouteText is what a router reads of the row: the question with its
// choices (policies.WithChoices).
func (r ReplayRow) RouteText() string { return policies.WithChoices(r.Question, r.Choices) }

// ReplaySet is a routing dataset split into train and test, with the test
// rows that also appear verbatim in train removed.
type ReplaySet struct {
	Dir     string
	Models  []ReplayModel // scored candidates, by name
	Train   []ReplayRow
	Test    []ReplayRow
	Dropped int // test rows removed because train holds the same question
	// Incomplete counts the rows LoadOptions.DropIncomplete removed because
	// they lack a score for some candidate.
	Incomplete int
	// Split names the rows in Test: "" or SplitTest for the test split,
	// SplitValidation for a part held out of train (ValidationSet).
	Split string
	// estimates is how the routers estimate costs and latencies, chosen on
	// Train once (estimateChoice) and shared by its folds.
	estimates *EstimateChoice
	// answers are those estimates learnt from Train, shared by every
	// router trained on it (answerEstimates).
	answers *answerEstimates
	// folds are the operating point's folds of Train, shared by every
	// router (operatingFolds).
	folds []*ReplaySet
}

// estimateChoice is how the routers trained on s estimate an answer's cost
// and latency, measured on Train at the first call. Not safe for
// concurrent first calls: callers ask before they fan out.
func (s *ReplaySet) estimateChoice() EstimateChoice {
	if s.estimates == nil {
		c := chooseEstimates(s.Models, s.Train)
		s.estimates = &c
	}
	return *s.estimates
}

// answerEstimates are what the routers trained on s weigh an answer's
// cost and latency by, learnt from Train at the first call and kept: the
// same for every router, and on a set that records costs a search of the
// nearest train questions for each question routed. Not safe for
// concurrent use: the estimates keep each question's neighbours as they
// find them.
func (s *ReplaySet) answerEstimates() *answerEstimates {
	if s.answers == nil {
		s.answers = newAnswerEstimates(s.Models, s.Train, s.estimateChoice())
	}
	return s.answers
}

// LoadOptions tune LoadReplayWith.
type LoadOptions struct {
	// DropIncomplete removes rows lacking a score for some candidate
	// instead of refusing the set; the report counts them.
	DropIncomplete bool
	// Split is the rows to score: SplitTest (or "") the test split,
	// SplitValidation a part held out of train (ValidationSet). With
	// SplitValidation the test files are not read at all.
	Split string
}

// Files of a replay directory (the llmrouter-nim9 layout).
const (
	replayTrainScores = "scores_train.json"
	replayTestScores  = "scores_test.json"
	replayTrainTasks  = "queries_train.jsonl"
	replayTestTasks   = "queries_test.jsonl"
	replayCandidates  = "llm_candidates.json"
)

// LoadReplay reads a replay directory strictly (see LoadReplayWith).
func LoadReplay(dir string) (*ReplaySet, error) { return LoadReplayWith(dir, LoadOptions{}) }

// LoadReplayWith reads a replay directory: score arrays for train and test,
// the candidates' prices, and (optionally) the task family of each query.
// The candidates are the union of the models any row scores; a row lacking
// a score for one of them is refused (or dropped, with DropIncomplete).
func LoadReplayWith(dir string, opts LoadOptions) (*ReplaySet, error) {
	validation := opts.Split == SplitValidation
	train, err := readSplit(dir, "train", replayTrainScores, replayTrainTasks)
	if err != nil {
		return nil, err
	}
	var test []ReplayRow
	if !validation {
		if test, err = readSplit(dir, "test", replayTestScores, replayTestTasks); err != nil {
			return nil, err
		}
	}
	models, err := loadCandidates(dir, scoredModels(train, test))
	if err != nil {
		return nil, err
	}
	for _, split := range []struct {
		file string
		rows []ReplayRow
	}{{replayTrainScores, train}, {replayTestScores, test}} {
		if err := checkOutcomeModels(filepath.Join(dir, split.file), split.rows, models); err != nil {
			return nil, err
		}
	}
	train, test, incomplete, err := checkComplete(models, train, test, opts.DropIncomplete)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if err := checkCosts(models, train, test); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if validation {
		return (&ReplaySet{Dir: dir, Models: models, Train: train, Incomplete: incomplete}).ValidationSet()
	}
	if len(train) == 0 || len(test) == 0 {
		return nil, fmt.Errorf("%s: the train and test splits both need rows (train %d, test %d)", dir, len(train), len(test))
	}
	clean, dropped := dropOverlap(test, train)
	if len(clean) == 0 {
		return nil, fmt.Errorf("%s: every test row (%d) asks a question train asks too, so none is left to score: "+
			"a test row must be new to the routers", dir, dropped)
	}
	return &ReplaySet{Dir: dir, Models: models, Train: train, Test: clean, Dropped: dropped, Incomplete: incomplete}, nil
}

// readScoresError says why a replay set's scores could not be read: no
// such folder, a folder that is not a replay set, or the read's own error.
func readScoresError(dir, scores string, err error) error {
	if st, serr := os.Stat(dir); serr != nil {
		return fmt.Errorf("no replay set at %s: there is no such folder", dir)
	} else if !st.IsDir() {
		return fmt.Errorf("no replay set at %s: it is a file, and a replay set is a folder", dir)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s is not a replay set: it has no %s (docs/replay-format.md lists the files; "+
			"toolhub eval convert makes a set from a CSV of per-query outcomes)", dir, scores)
	}
	return fmt.Errorf("read replay scores: %w", err)
}

// readSplit reads one split's scores (ParseScores) and, from its queries
// file, task families and choices.
func readSplit(dir, split, scores, tasks string) ([]ReplayRow, error) {
	path := filepath.Join(dir, scores)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && split == "test" {
		return nil, fmt.Errorf("%s: no %s: a set without a test split is scored on a part held out of train (--split validation)", dir, scores)
	}
	if err != nil {
		return nil, readScoresError(dir, scores, err)
	}
	rows, err := ParseScores(path, split, data)
	if err != nil {
		return nil, err
	}
	if err := labelQueries(rows, filepath.Join(dir, tasks)); err != nil {
		return nil, err
	}
	return rows, nil
}

// labelQueries sets each row's task family and choices from the queries
// file, joined on the question text, where the row has none of its own.
// Lines split on "\n" only: queries hold U+2028.
func labelQueries(rows []ReplayRow, path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read replay queries: %w", err)
	}
	type query struct {
		task    string
		choices policies.Choices
	}
	byText := map[string]query{}
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var q struct {
			TaskName string           `json:"task_name"`
			Query    string           `json:"query"`
			Choices  policies.Choices `json:"choices"`
		}
		if err := json.Unmarshal(line, &q); err != nil {
			return fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		byText[q.Query] = query{task: q.TaskName, choices: q.Choices}
	}
	for i := range rows {
		q := byText[rows[i].Question]
		if rows[i].Task == "" {
			rows[i].Task = q.task
		}
		if rows[i].Choices == "" {
			rows[i].Choices = q.choices
		}
	}
	return nil
}

// dropOverlap removes test rows whose question appears verbatim in train.
func dropOverlap(test, train []ReplayRow) ([]ReplayRow, int) {
	seen := make(map[string]bool, len(train))
	for _, r := range train {
		seen[r.Question] = true
	}
	var clean []ReplayRow
	for _, r := range test {
		if !seen[r.Question] {
			clean = append(clean, r)
		}
	}
	return clean, len(test) - len(clean)
}

// Model returns the candidate called name.
func (s *ReplaySet) Model(name string) (ReplayModel, bool) {
	i := slices.IndexFunc(s.Models, func(m ReplayModel) bool { return m.Name == name })
	if i < 0 {
		return ReplayModel{}, false
	}
	return s.Models[i], true
}
