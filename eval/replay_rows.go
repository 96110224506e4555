package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
)

// ParseScores parses one split's scores file: a JSON array of rows (v1:
// question and scores; v2 adds id, task and choices, and cost_usd,
// latency_s, tokens_in and tokens_out, each a map from model to value; a
// null value is no value, withoutNulls). A
// row without an id is named split#N (N from 1). Every error starts with
// name and names the row: a value of the wrong type, a row without a
// question or scores, a value out of range, or an id given to two rows.
func ParseScores(name, split string, data []byte) ([]ReplayRow, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, fmt.Errorf("%s: want a JSON array of rows", name)
	}
	var rows []ReplayRow
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s: row %s#%d: %w", name, split, len(rows)+1, decodeReason(err))
		}
		var r ReplayRow
		err := json.Unmarshal(raw, &r)
		withoutNulls(raw, &r)
		if r.ID == "" {
			r.ID = fmt.Sprintf("%s#%d", split, len(rows)+1)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: row %s: %w", name, r.ID, decodeReason(err))
		}
		if err := checkRow(r); err != nil {
			return nil, fmt.Errorf("%s: row %s: %w", name, r.ID, err)
		}
		rows = append(rows, r)
	}
	if err := endOfArray(dec); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := checkUniqueIDs(rows); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return rows, nil
}

// withoutNulls leaves out of r the models whose value the row's JSON, raw,
// gives as null: encoding/json reads a null in a map as 0. A null value is
// no value, as if the file did not name the model: a null score is a
// missing score (refused, or dropped with --drop-incomplete, like any
// other), and a null cost, latency or token count is not recorded.
func withoutNulls(raw []byte, r *ReplayRow) {
	if !bytes.Contains(raw, []byte("null")) {
		return
	}
	var nulls struct {
		Scores    map[string]*float64 `json:"scores"`
		CostUSD   map[string]*float64 `json:"cost_usd"`
		LatencyS  map[string]*float64 `json:"latency_s"`
		TokensIn  map[string]*float64 `json:"tokens_in"`
		TokensOut map[string]*float64 `json:"tokens_out"`
	}
	_ = json.Unmarshal(raw, &nulls) // a value of the wrong type was reported when r was read
	for _, f := range []struct {
		values map[string]float64
		raw    map[string]*float64
	}{{r.Scores, nulls.Scores}, {r.CostUSD, nulls.CostUSD}, {r.LatencyS, nulls.LatencyS},
		{r.TokensIn, nulls.TokensIn}, {r.TokensOut, nulls.TokensOut}} {
		for m, v := range f.raw {
			if v == nil {
				delete(f.values, m)
			}
		}
	}
}

// endOfArray reads the closing bracket of the rows and makes sure nothing
// but white space follows it.
func endOfArray(dec *json.Decoder) error {
	if _, err := dec.Token(); err != nil {
		return decodeReason(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("more after the array of rows")
	}
	return nil
}

// decodeReason says what a row's JSON got wrong in the file's terms: the
// field and the kind of value found and wanted (encoding/json names Go
// types), or where the syntax broke.
func decodeReason(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Errorf("JSON %s where an object is wanted", te.Value)
		}
		return fmt.Errorf("%s: JSON %s where %s is wanted", te.Field, te.Value, wantedJSON(te.Type))
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%w (at byte %d)", err, se.Offset)
	}
	return err
}

func wantedJSON(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Float64, reflect.Int:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Map:
		return "an object from model to number"
	}
	return "an object"
}

// checkRow refuses a row without a question or scores, and values out of
// range (checkRowValues).
func checkRow(r ReplayRow) error {
	switch {
	case strings.TrimSpace(r.Question) == "":
		return errors.New("no question (a row needs its question and scores)")
	case len(r.Scores) == 0:
		return errors.New("no scores (a row needs its question and scores)")
	}
	return checkRowValues(r)
}

// checkRowValues refuses scores outside [0,1] and negative or non-finite
// costs, latencies and token counts.
func checkRowValues(r ReplayRow) error {
	for m, s := range r.Scores {
		if !(s >= 0 && s <= 1) {
			return fmt.Errorf("score of %q is %v, want a number in [0,1]", m, s)
		}
	}
	for field, values := range map[string]map[string]float64{"cost_usd": r.CostUSD, "latency_s": r.LatencyS,
		"tokens_in": r.TokensIn, "tokens_out": r.TokensOut} {
		for m, v := range values {
			if !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("%s of %q is %v, want a finite non-negative number", field, m, v)
			}
		}
	}
	return nil
}

// checkUniqueIDs refuses a split in which two rows share an id: errors and
// dropped rows are named by id, and must name one row.
func checkUniqueIDs(rows []ReplayRow) error {
	seen := make(map[string]int, len(rows))
	var dups []string
	n := 0
	for _, r := range rows {
		seen[r.ID]++
		if seen[r.ID] != 2 {
			continue
		}
		n++
		if len(dups) < maxListedIDs {
			dups = append(dups, r.ID)
		}
	}
	if n > 0 {
		return fmt.Errorf("%s %s given to more than one row, first: %s (each row's id must be its own)",
			counted(n, "id"), pick(n, "is", "are"), strings.Join(dups, ", "))
	}
	return nil
}
