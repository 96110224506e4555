package mcp

import (
	"encoding/json"
	"testing"
)

func TestEnvelopeProblem(t *testing.T) {
	cases := []struct {
		name, body, id string
		bad            bool
	}{
		{"a request", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "", false},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", false},
		{"an answer", `{"jsonrpc":"2.0","id":"a","result":{}}`, "", false},
		{"an error answer", `{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"x"}}`, "", false},
		{"not JSON: left to the parser", `{"jsonrpc":`, "", false},
		{"a batch: left to its own check", `[{"id":1}]`, "", false},
		{"an id alone", `{"jsonrpc":"2.0","id":3}`, "3", true},
		{"a string id alone", `{"jsonrpc":"2.0","id":"x"}`, `"x"`, true},
		{"a null id on a request", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "", true},
		{"an object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, "", true},
		{"a number method", `{"jsonrpc":"2.0","id":4,"method":4}`, "4", true},
		{"a string body", `"ping"`, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id, problem := envelopeProblem([]byte(tc.body))
			if (problem != "") != tc.bad || string(id) != tc.id {
				t.Errorf("id %q problem %q; want id %q, a problem: %v", id, problem, tc.id, tc.bad)
			}
		})
	}
}

func FuzzEnvelopeProblem(f *testing.F) {
	for _, s := range []string{`{"id":1}`, `{"id":null,"method":"x"}`, `5`, `[`, `{"method":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		id, problem := envelopeProblem(body)
		if problem == "" && id != nil {
			t.Fatalf("an id %q without a problem", id)
		}
		if id != nil && !json.Valid(id) {
			t.Fatalf("id %q is not JSON", id)
		}
	})
}
