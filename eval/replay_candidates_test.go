package eval

import (
	"strings"
	"testing"
)

func TestEvalParseCandidatesNamesTheModel(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"price a string", `[{"name":"a","input_price":1,"output_price":1},{"name":"b","input_price":"0.2","output_price":0.2}]`,
			`c.json: model "b": input_price: JSON string where a number is wanted`},
		{"size a number", `[{"name":"a","input_price":1,"output_price":1,"size":7}]`,
			`c.json: model "a": size: JSON number where a string is wanted`},
		{"no name and a bad context", `[{"input_price":1,"output_price":1,"context":"8k"}]`,
			`c.json: candidate 1: context: JSON string where a number is wanted`},
		{"v1 price a string", `{"a":{"size":"7B","input_price":"1","output_price":1}}`,
			`c.json: model "a": input_price: JSON string where a number is wanted`},
		{"not a list", `"a"`, `c.json: `},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCandidates("c.json", []byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}
