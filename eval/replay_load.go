package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// replayCandidatesV2 is the v2 candidates file; without it the v1
// llm_candidates.json is read.
const replayCandidatesV2 = "candidates.json"

// scoredModels is the sorted union of the models any row scores.
func scoredModels(splits ...[]ReplayRow) []string {
	seen := map[string]bool{}
	for _, rows := range splits {
		for _, r := range rows {
			for m := range r.Scores {
				seen[m] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	slices.Sort(out)
	return out
}

// loadCandidates reads the candidates file (v2, else v1) and returns the
// scored models with their prices, sorted by name. A scored model the file
// does not price is an error.
func loadCandidates(dir string, scored []string) ([]ReplayModel, error) {
	path := filepath.Join(dir, replayCandidatesV2)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		path = filepath.Join(dir, replayCandidates)
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("read replay candidates: %w", err)
	}
	all, err := parseCandidates(path, data, func(name string) bool { _, ok := slices.BinarySearch(scored, name); return ok })
	if err != nil {
		return nil, err
	}
	models := make([]ReplayModel, 0, len(scored))
	for _, name := range scored {
		i := slices.IndexFunc(all, func(m ReplayModel) bool { return m.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("%s: no price for scored model %q", path, name)
		}
		models = append(models, all[i])
	}
	return models, nil
}

// candidate is one entry of a candidates file, in either version.
type candidate struct {
	Name        string   `json:"name"`
	Size        *string  `json:"size"`
	InputPrice  *float64 `json:"input_price"`
	OutputPrice *float64 `json:"output_price"`
	Context     int      `json:"context"`
}

// ParseCandidates parses a candidates file: v2 is a JSON array of {name,
// input_price, output_price, size, context}; v1 (llm_candidates.json) an
// object from name to {size, input_price, output_price}. Prices are USD per
// million tokens, both or neither (Unpriced: every row must then record
// the model's cost, which the set's loader checks); size is like "7B",
// empty or absent when unknown, anything else an error.
func ParseCandidates(name string, data []byte) ([]ReplayModel, error) {
	return parseCandidates(name, data, nil)
}

// parseCandidates is ParseCandidates of the candidates keep accepts (nil:
// all): a candidate no row scores is not checked, as it is not used (a
// pool's file may list models it has no scores of, in notations this
// loader does not read, "8x7B" say).
func parseCandidates(name string, data []byte, keep func(string) bool) ([]ReplayModel, error) {
	list, err := decodeCandidates(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := make([]ReplayModel, 0, len(list))
	seen := map[string]bool{}
	for _, c := range list {
		if keep != nil && !keep(c.Name) {
			continue
		}
		m, err := c.model()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if seen[m.Name] {
			return nil, fmt.Errorf("%s: model %q listed twice", name, m.Name)
		}
		seen[m.Name] = true
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b ReplayModel) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// decodeCandidates decodes the entries of a candidates file one by one, so
// that a value of the wrong type is named by its model and field.
func decodeCandidates(data []byte) ([]candidate, error) {
	var list []candidate
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		var raw []json.RawMessage
		if err := json.Unmarshal(t, &raw); err != nil {
			return nil, decodeReason(err)
		}
		for i, r := range raw {
			var c candidate
			if err := json.Unmarshal(r, &c); err != nil {
				if c.Name != "" {
					return nil, fmt.Errorf("model %q: %w", c.Name, decodeReason(err))
				}
				return nil, fmt.Errorf("candidate %d: %w", i+1, decodeReason(err))
			}
			list = append(list, c)
		}
		return list, nil
	}
	var byName map[string]json.RawMessage
	if err := json.Unmarshal(data, &byName); err != nil {
		return nil, decodeReason(err)
	}
	for _, n := range slices.Sorted(maps.Keys(byName)) {
		var c candidate
		if err := json.Unmarshal(byName[n], &c); err != nil {
			return nil, fmt.Errorf("model %q: %w", n, decodeReason(err))
		}
		c.Name = n
		list = append(list, c)
	}
	return list, nil
}

func (c candidate) model() (ReplayModel, error) {
	if c.Name == "" {
		return ReplayModel{}, errors.New("a candidate has no name")
	}
	unpriced := c.InputPrice == nil && c.OutputPrice == nil
	if !unpriced && (c.InputPrice == nil || c.OutputPrice == nil || !(*c.InputPrice >= 0) || !(*c.OutputPrice >= 0) ||
		math.IsInf(*c.InputPrice, 0) || math.IsInf(*c.OutputPrice, 0)) {
		return ReplayModel{}, fmt.Errorf("model %q: input_price and output_price (USD per 1M tokens) must both be given and non-negative, "+
			"or both left out when every row records the model's cost_usd", c.Name)
	}
	if c.Context < 0 {
		return ReplayModel{}, fmt.Errorf("model %q: context %d is negative", c.Name, c.Context)
	}
	size := ""
	if c.Size != nil {
		size = *c.Size
	}
	b, err := ParseSize(size)
	if err != nil {
		return ReplayModel{}, fmt.Errorf("model %q: %w", c.Name, err)
	}
	m := ReplayModel{Name: c.Name, SizeB: b, Context: c.Context, Unpriced: unpriced}
	if !unpriced {
		m.PriceIn, m.PriceOut = *c.InputPrice, *c.OutputPrice
	}
	return m, nil
}

// ParseSize reads a parameter count like "7B", "1.5b" or "70": billions.
// An empty size is unknown (0); anything unparseable or not positive is an
// error, never a guess.
func ParseSize(s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.ToUpper(t), "B"), 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("size %q: want billions of parameters like \"7B\", or empty when unknown", s)
	}
	return v, nil
}
