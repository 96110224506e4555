package conductor

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestStepBodiesAreWrittenAsTheJSONTheyAre(t *testing.T) {
	cases := []struct {
		name       string
		body       []byte
		wantInJSON string // what the step's JSON holds for it
	}{
		{"a JSON request", []byte(`{"model":"m","messages":[]}`), `"request":{"model":"m","messages":[]}`},
		{"a stream, not JSON", []byte("data: {\"x\":1}\n\n"), `"request":"ZGF0YTogeyJ4IjoxfQoK"`},
		{"a JSON string is not a body shape", []byte(`"text"`), `"request":"InRleHQi"`},
		{"blank", []byte("  "), `"request":"ICA="`},
		{"none", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := Step{Kind: StepModel, Request: tc.body}
			data, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantInJSON == "" && strings.Contains(string(data), `"request"`) ||
				!strings.Contains(string(data), tc.wantInJSON) {
				t.Errorf("JSON %s, want %s", data, tc.wantInJSON)
			}
			var out Step
			if err := json.Unmarshal(data, &out); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Request, tc.body) || out.Kind != StepModel {
				t.Errorf("read back %q, want %q", out.Request, tc.body)
			}
		})
	}
}

// TestStepReadsBodiesWrittenAsBase64: steps written before bodies were
// written as JSON (version 1 run log records) still read.
func TestStepReadsBodiesWrittenAsBase64(t *testing.T) {
	var s Step
	if err := json.Unmarshal([]byte(`{"kind":"model","request":"eyJhIjoxfQ==","reply":"b2s="}`), &s); err != nil {
		t.Fatal(err)
	}
	if string(s.Request) != `{"a":1}` || string(s.Reply) != "ok" {
		t.Errorf("request %q reply %q", s.Request, s.Reply)
	}
}

func FuzzStepJSON(f *testing.F) {
	f.Add([]byte(`{"a":1}`), []byte("plain"))
	f.Add([]byte(" [1, 2] "), []byte(""))
	f.Fuzz(func(t *testing.T, req, reply []byte) {
		data, err := json.Marshal(Step{Request: req, Reply: reply})
		if err != nil {
			t.Fatal(err)
		}
		var out Step
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		// A JSON body comes back as the same JSON (compacted, its HTML
		// characters escaped); every other body byte for byte.
		for _, pair := range [][2][]byte{{req, out.Request}, {reply, out.Reply}} {
			if b, _ := bodyJSON(pair[0]); len(b) > 0 && b[0] != '"' {
				var want, got any
				if json.Unmarshal(pair[0], &want) != nil || json.Unmarshal(pair[1], &got) != nil || !reflect.DeepEqual(want, got) {
					t.Fatalf("JSON body %q came back as %q", pair[0], pair[1])
				}
				continue
			}
			if !bytes.Equal(pair[1], pair[0]) && !(len(pair[1]) == 0 && len(pair[0]) == 0) {
				t.Fatalf("body %q came back as %q", pair[0], pair[1])
			}
		}
	})
}
