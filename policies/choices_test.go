package policies_test

import (
	"encoding/json"
	"testing"

	"github.com/toolhub/toolhub/policies"
)

func TestChoicesForms(t *testing.T) {
	cases := []struct {
		name, json, want, text string
	}{
		{"a string as it is", `{"choices":"['x', 'y']"}`, "['x', 'y']", "q\n['x', 'y']"},
		{"a list as its compact JSON", `{"choices":[ "x", "y" ]}`, `["x","y"]`, "q\n[\"x\",\"y\"]"},
		{"an object as its compact JSON", `{"choices":{"text": ["x"], "label": ["A"]}}`, `{"text":["x"],"label":["A"]}`, "q\n" + `{"text":["x"],"label":["A"]}`},
		{"null is none", `{"choices":null}`, "", "q"},
		{"absent is none", `{}`, "", "q"},
		{"an empty string is none", `{"choices":""}`, "", "q"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var row struct {
				Choices policies.Choices `json:"choices"`
			}
			if err := json.Unmarshal([]byte(tc.json), &row); err != nil {
				t.Fatal(err)
			}
			if string(row.Choices) != tc.want || policies.WithChoices("q", row.Choices) != tc.text {
				t.Fatalf("choices %q read as %q; want %q, read as %q", row.Choices, policies.WithChoices("q", row.Choices), tc.want, tc.text)
			}
		})
	}
}

// FuzzChoices: any valid JSON value is read as choices without failing: a
// string as itself, null as none, any other value as its compact form.
func FuzzChoices(f *testing.F) {
	for _, s := range []string{`"['a', 'b']"`, `null`, `["a","b"]`, `{"text": ["a"], "label": ["A"]}`, `7`, `"\u2028"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		var c policies.Choices
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatalf("%q refused: %v", raw, err)
		}
		var s string
		switch {
		case json.Unmarshal(raw, &s) == nil:
			if string(c) != s {
				t.Fatalf("string %q read as %q", raw, c)
			}
		case !json.Valid([]byte(c)) || len(c) > len(raw):
			t.Fatalf("%q read as %q, want its compact JSON", raw, c)
		}
	})
}
