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
	"strconv"
	"strings"
)

// ReplayModel is a candidate model of a replay set with its price.
type ReplayModel struct {
	Name     string  `json:"name"`
	SizeB    float64 `json:"size_b"`    // parameters, billions
	PriceIn  float64 `json:"price_in"`  // USD per 1M input tokens
	PriceOut float64 `json:"price_out"` // USD per 1M output tokens
}

// ReplayRow is one recorded task: its text, its task family and the score
// in [0,1] every candidate obtained on it.
type ReplayRow struct {
	Question string             `json:"question"`
	Task     string             `json:"task,omitempty"`
	Scores   map[string]float64 `json:"scores"`
}

// ReplaySet is a routing dataset split into train and test, with the test
// rows that also appear verbatim in train removed.
type ReplaySet struct {
	Dir     string
	Models  []ReplayModel // scored candidates, by name
	Train   []ReplayRow
	Test    []ReplayRow
	Dropped int // test rows removed because train holds the same question
}

// Files of a replay directory (the llmrouter-nim9 layout).
const (
	replayTrainScores = "scores_train.json"
	replayTestScores  = "scores_test.json"
	replayTrainTasks  = "queries_train.jsonl"
	replayTestTasks   = "queries_test.jsonl"
	replayCandidates  = "llm_candidates.json"
)

// LoadReplay reads a replay directory: score arrays for train and test,
// the candidates' prices, and (optionally) the task family of each query.
func LoadReplay(dir string) (*ReplaySet, error) {
	train, err := readScores(filepath.Join(dir, replayTrainScores))
	if err != nil {
		return nil, err
	}
	test, err := readScores(filepath.Join(dir, replayTestScores))
	if err != nil {
		return nil, err
	}
	if err := labelTasks(train, filepath.Join(dir, replayTrainTasks)); err != nil {
		return nil, err
	}
	if err := labelTasks(test, filepath.Join(dir, replayTestTasks)); err != nil {
		return nil, err
	}
	models, err := readCandidates(filepath.Join(dir, replayCandidates), train)
	if err != nil {
		return nil, err
	}
	clean, dropped := dropOverlap(test, train)
	return &ReplaySet{Dir: dir, Models: models, Train: train, Test: clean, Dropped: dropped}, nil
}

func readScores(path string) ([]ReplayRow, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read replay scores: %w", err)
	}
	var rows []ReplayRow
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, r := range rows {
		if len(r.Scores) == 0 {
			return nil, fmt.Errorf("%s: row %d has no scores", path, i+1)
		}
	}
	return rows, nil
}

// labelTasks sets each row's task family from the queries file, joined on
// the question text. Lines split on "\n" only: queries hold U+2028.
func labelTasks(rows []ReplayRow, path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read replay queries: %w", err)
	}
	family := map[string]string{}
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var q struct {
			TaskName string `json:"task_name"`
			Query    string `json:"query"`
		}
		if err := json.Unmarshal(line, &q); err != nil {
			return fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		family[q.Query] = q.TaskName
	}
	for i := range rows {
		rows[i].Task = family[rows[i].Question]
	}
	return nil
}

// readCandidates keeps the priced candidates that rows score.
func readCandidates(path string, rows []ReplayRow) ([]ReplayModel, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read replay candidates: %w", err)
	}
	var raw map[string]struct {
		Size        string  `json:"size"`
		InputPrice  float64 `json:"input_price"`
		OutputPrice float64 `json:"output_price"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var models []ReplayModel
	for name := range rows[0].Scores {
		c, ok := raw[name]
		if !ok {
			return nil, fmt.Errorf("%s: no price for scored model %q", path, name)
		}
		size, _ := strconv.ParseFloat(strings.TrimSuffix(strings.ToUpper(c.Size), "B"), 64)
		models = append(models, ReplayModel{Name: name, SizeB: size, PriceIn: c.InputPrice, PriceOut: c.OutputPrice})
	}
	slices.SortFunc(models, func(a, b ReplayModel) int { return strings.Compare(a.Name, b.Name) })
	return models, nil
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
