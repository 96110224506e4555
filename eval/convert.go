package eval

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhub/toolhub/policies"
)

// Columns of a per-query outcomes CSV: one line per (query, model).
// Required: id, split (train or test), question, model, score; optional:
// task, choices, cost_usd, latency_s, tokens_in, tokens_out (empty: not
// recorded).
var (
	outcomeRequired = []string{"id", "split", "question", "model", "score"}
	outcomeOptional = []string{"task", "choices", "cost_usd", "latency_s", "tokens_in", "tokens_out"}
)

// ConvertOutcomes reads a per-query outcomes CSV into v2 train and test rows
// (in first-seen order). name labels errors with the line.
func ConvertOutcomes(name string, r io.Reader) (train, test []ReplayRow, err error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: header: %w", name, err)
	}
	col, err := outcomeColumns(withoutBOM(header))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	rows := map[string]*ReplayRow{}
	split := map[string]string{}
	var order []string
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		get := func(c string) string {
			if i, ok := col[c]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		id, model := get("id"), get("model")
		if id == "" || model == "" || get("question") == "" {
			return nil, nil, fmt.Errorf("%s:%d: id, question and model must not be empty", name, line)
		}
		if s := get("split"); s != "train" && s != "test" {
			return nil, nil, fmt.Errorf("%s:%d: split %q: want train or test", name, line, s)
		}
		row, seen := rows[id]
		if !seen {
			row = &ReplayRow{ID: id, Question: get("question"), Choices: policies.Choices(get("choices")), Task: get("task"), Scores: map[string]float64{}}
			rows[id], split[id] = row, get("split")
			order = append(order, id)
		} else if row.Question != get("question") || string(row.Choices) != get("choices") || row.Task != get("task") || split[id] != get("split") {
			return nil, nil, fmt.Errorf("%s:%d: id %q appears with another question, choices, task or split", name, line, id)
		}
		if _, dup := row.Scores[model]; dup {
			return nil, nil, fmt.Errorf("%s:%d: id %q scores model %q twice", name, line, id, model)
		}
		if err := setOutcome(row, model, get); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	for _, id := range order {
		if err := checkRowValues(*rows[id]); err != nil {
			return nil, nil, fmt.Errorf("%s: id %q: %w", name, id, err)
		}
		if split[id] == "train" {
			train = append(train, *rows[id])
		} else {
			test = append(test, *rows[id])
		}
	}
	return train, test, nil
}

func outcomeColumns(header []string) (map[string]int, error) {
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(outcomeRequired, h) && !slices.Contains(outcomeOptional, h) {
			return nil, fmt.Errorf("unknown column %q (want %s, optionally %s)", h,
				strings.Join(outcomeRequired, ", "), strings.Join(outcomeOptional, ", "))
		}
		col[h] = i
	}
	for _, c := range outcomeRequired {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("missing column %q", c)
		}
	}
	return col, nil
}

// setOutcome records one model's score and, when given, its cost, latency
// and token counts on row.
func setOutcome(row *ReplayRow, model string, get func(string) string) error {
	s := get("score")
	if s == "" {
		return fmt.Errorf("model %q: the score is empty: give a number in [0,1], or leave the line out "+
			"(eval refuses a question without some model's score unless --drop-incomplete)", model)
	}
	score, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("model %q: score %q: want a number in [0,1]", model, s)
	}
	row.Scores[model] = score
	for _, f := range []struct {
		col string
		dst *map[string]float64
	}{{"cost_usd", &row.CostUSD}, {"latency_s", &row.LatencyS}, {"tokens_in", &row.TokensIn}, {"tokens_out", &row.TokensOut}} {
		s := get(f.col)
		if s == "" {
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("model %q: %s %q: want a number, or an empty cell when not recorded", model, f.col, s)
		}
		if *f.dst == nil {
			*f.dst = map[string]float64{}
		}
		(*f.dst)[model] = v
	}
	return nil
}

// withoutBOM drops the byte order mark some programs (spreadsheets saving
// "CSV UTF-8") put before a CSV's first column name.
func withoutBOM(header []string) []string {
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	return header
}

// candidateColumns are the columns of a candidates CSV, the three required
// first.
var candidateColumns = []string{"name", "input_price", "output_price", "size", "context"}

// ConvertCandidates reads a candidates CSV (name, input_price,
// output_price, and optionally size and context) into v2 candidates. A
// price cell is a number or empty (both empty: a model whose every cost is
// recorded); anything else is an error naming the line, never read as
// absent. A model listed twice is an error too (the loader would refuse the
// candidates file), and so is an unknown column (a misspelt size or context
// would otherwise be read as unknown).
func ConvertCandidates(name string, r io.Reader) ([]ReplayModel, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: want a header and at least one model", name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", name, err)
	}
	col := map[string]int{}
	for i, h := range withoutBOM(header) {
		h = strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(candidateColumns, h) {
			return nil, fmt.Errorf("%s: unknown column %q (want %s)", name, h, strings.Join(candidateColumns, ", "))
		}
		col[h] = i
	}
	for _, c := range candidateColumns[:3] {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("%s: missing column %q", name, c)
		}
	}
	var out []ReplayModel
	seen := map[string]bool{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		m, err := candidateRecord(rec, col)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if seen[m.Name] {
			return nil, fmt.Errorf("%s:%d: model %q listed twice", name, line, m.Name)
		}
		seen[m.Name] = true
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: want a header and at least one model", name)
	}
	return out, nil
}

// candidateRecord reads one line of a candidates CSV.
func candidateRecord(rec []string, col map[string]int) (ReplayModel, error) {
	get := func(c string) string {
		if i, ok := col[c]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	c := candidate{Name: get("name")}
	size := get("size")
	c.Size = &size
	for _, p := range []struct {
		col string
		dst **float64
	}{{"input_price", &c.InputPrice}, {"output_price", &c.OutputPrice}} {
		s := get(p.col)
		if s == "" {
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return ReplayModel{}, fmt.Errorf("model %q: %s %q: want USD per million tokens, or empty: %w", c.Name, p.col, s, err)
		}
		*p.dst = &v
	}
	if s := get("context"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return ReplayModel{}, fmt.Errorf("model %q: context %q: want a whole number of tokens, or empty", c.Name, s)
		}
		c.Context = n
	}
	return c.model()
}
