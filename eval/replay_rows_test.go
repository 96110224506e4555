package eval

import (
	"strings"
	"testing"
)

func TestEvalParseScoresNamesTheRow(t *testing.T) {
	ok := `{"question":"q0","scores":{"a":1}}`
	cases := []struct {
		name, rows, want string
	}{
		{"a string cost, id after it", `[` + ok + `,{"question":"q","scores":{"a":1},"cost_usd":{"a":"0.1"},"id":"gsm-7"}]`,
			`s.json: row gsm-7: cost_usd: JSON string where a number is wanted`},
		{"a string cost without id", `[` + ok + `,{"question":"q","scores":{"a":1},"cost_usd":{"a":"0.1"}}]`,
			`s.json: row test#2: cost_usd: JSON string where a number is wanted`},
		{"scores not an object", `[{"id":"x","question":"q","scores":[1]}]`, `row x: scores: JSON array where an object from model to number is wanted`},
		{"a number for the question", `[{"question":5,"scores":{"a":1}}]`, `row test#1: question: JSON number where a string is wanted`},
		{"a row that is not an object", `[` + ok + `,3]`, `row test#2: JSON number where an object is wanted`},
		{"a negative cost", `[{"id":"neg","question":"q","scores":{"a":1},"cost_usd":{"a":-1}}]`, `row neg: cost_usd of "a" is -1`},
		{"a score above 1", `[` + ok + `,{"question":"q","scores":{"a":2}}]`, `row test#2: score of "a" is 2`},
		{"no question", `[{"id":"e","scores":{"a":1}}]`, `row e: no question`},
		{"an empty question", `[{"question":"  ","scores":{"a":1}}]`, `row test#1: no question`},
		{"no scores", `[{"question":"q","scores":{}}]`, `row test#1: no scores`},
		{"an id twice", `[{"id":"a1","question":"q1","scores":{"a":1}},{"id":"b","question":"q2","scores":{"a":1}},` +
			`{"id":"a1","question":"q3","scores":{"a":1}},{"id":"b","question":"q4","scores":{"a":1}},{"id":"b","question":"q5","scores":{"a":1}}]`,
			`s.json: 2 ids are given to more than one row, first: a1, b`},
		{"an id taking a row's place", `[{"id":"test#2","question":"q1","scores":{"a":1}},{"question":"q2","scores":{"a":1}}]`,
			`1 id is given to more than one row, first: test#2`},
		{"not an array", `{"question":"q"}`, `s.json: want a JSON array of rows`},
		{"a broken row", `[` + ok + `,{"question":"q",}]`, `s.json: row test#2: invalid character '}'`},
		{"more after the array", `[` + ok + `] []`, `s.json: more after the array of rows`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseScores("s.json", "test", []byte(tc.rows))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// TestEvalParseScoresReadsNullAsNoValue: encoding/json reads a null in a
// map as 0; a null score is a missing one and a null cost not recorded.
func TestEvalParseScoresReadsNullAsNoValue(t *testing.T) {
	rows, err := ParseScores("s.json", "test", []byte(`[{"id":"r","question":"q","scores":{"a":1,"b":null},`+
		`"cost_usd":{"a":null,"b":0.5},"latency_s":{"a":null},"tokens_in":{"b":null},"tokens_out":{"a":7,"b":null}}]`))
	if err != nil {
		t.Fatal(err)
	}
	r := rows[0]
	if _, ok := r.Scores["b"]; ok || r.Scores["a"] != 1 {
		t.Errorf("scores %v, want a's alone", r.Scores)
	}
	if _, ok := r.CostUSD["a"]; ok || r.CostUSD["b"] != 0.5 || len(r.LatencyS) != 0 || len(r.TokensIn) != 0 || len(r.TokensOut) != 1 {
		t.Errorf("cost %v latency %v tokens %v / %v, want the nulls left out", r.CostUSD, r.LatencyS, r.TokensIn, r.TokensOut)
	}
	if _, err := ParseScores("s.json", "test", []byte(`[{"question":"q","scores":{"a":null}}]`)); err == nil ||
		!strings.Contains(err.Error(), "row test#1: no scores") {
		t.Errorf("a row whose only score is null: err %v", err)
	}
}

func TestEvalParseScoresNamesRowsWithoutID(t *testing.T) {
	rows, err := ParseScores("s.json", "train", []byte(`[{"question":"q1","scores":{"a":1}},{"id":"x","question":"q2","scores":{"a":0}},`+
		`{"question":"q3","scores":{"a":1}}]`))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, ","); got != "train#1,x,train#3" {
		t.Fatalf("ids %s, want train#1,x,train#3", got)
	}
}
