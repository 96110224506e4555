package mcp

import (
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func TestEnvelopeProblem(t *testing.T) {
	cases := []struct {
		name, body, id string
		code           int // 0: no problem
	}{
		{"a request", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "", 0},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", 0},
		{"an answer", `{"jsonrpc":"2.0","id":"a","result":{}}`, "", 0},
		{"an error answer", `{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"x"}}`, "", 0},
		{"not JSON: left to the parser", `{"jsonrpc":`, "", 0},
		{"a batch: left to its own check", `[{"id":1}]`, "", 0},
		{"an id alone", `{"jsonrpc":"2.0","id":3}`, "3", mcpgo.INVALID_REQUEST},
		{"a string id alone", `{"jsonrpc":"2.0","id":"x"}`, `"x"`, mcpgo.INVALID_REQUEST},
		{"a null id on a request", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "", mcpgo.INVALID_REQUEST},
		{"an object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, "", mcpgo.INVALID_REQUEST},
		{"a number method", `{"jsonrpc":"2.0","id":4,"method":4}`, "4", mcpgo.INVALID_REQUEST},
		{"a string body", `"ping"`, "", mcpgo.INVALID_REQUEST},
		{"array params", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":[1,2]}`, "5", mcpgo.INVALID_PARAMS},
		{"string params", `{"jsonrpc":"2.0","id":5,"method":"ping","params":"x"}`, "5", mcpgo.INVALID_PARAMS},
		{"null params", `{"jsonrpc":"2.0","id":5,"method":"ping","params":null}`, "", 0},
		{"array params on a notification", `{"jsonrpc":"2.0","method":"notifications/initialized","params":[]}`, "", 0},
		{"an id past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, "9007199254740993", mcpgo.INVALID_REQUEST},
		{"an id below -2^53", `{"jsonrpc":"2.0","id":-9007199254740993,"method":"ping"}`, "-9007199254740993", mcpgo.INVALID_REQUEST},
		{"an id past int64", `{"jsonrpc":"2.0","id":123456789012345678901234,"method":"ping"}`, "123456789012345678901234", mcpgo.INVALID_REQUEST},
		{"an id of 2^53", `{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`, "", 0},
		{"a long string id", `{"jsonrpc":"2.0","id":"9007199254740993","method":"ping"}`, "", 0},
		{"an answer with a big id", `{"jsonrpc":"2.0","id":9007199254740993,"result":{}}`, "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id, code, problem := envelopeProblem([]byte(tc.body))
			if (problem != "") != (tc.code != 0) || code != tc.code || string(id) != tc.id {
				t.Errorf("id %q code %d problem %q; want id %q, code %d", id, code, problem, tc.id, tc.code)
			}
		})
	}
}

func TestInitializeProblem(t *testing.T) {
	cases := []struct {
		name, body string
		bad        bool
	}{
		{"without params", `{"jsonrpc":"2.0","id":6,"method":"initialize"}`, true},
		{"null params", `{"jsonrpc":"2.0","id":6,"method":"initialize","params":null}`, true},
		{"without a version", `{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"capabilities":{}}}`, true},
		{"a number version", `{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":2025}}`, true},
		{"good", `{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, false},
		{"another method", `{"jsonrpc":"2.0","id":6,"method":"ping"}`, false},
		{"a notification", `{"jsonrpc":"2.0","method":"initialize"}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := decodeMessage([]byte(tc.body))
			env, ok := m.envelope()
			if err != nil || !ok {
				t.Fatal("not an envelope")
			}
			if got := initializeProblem(env); (got != "") != tc.bad {
				t.Errorf("initializeProblem = %q, want a problem: %v", got, tc.bad)
			}
		})
	}
}

func FuzzEnvelopeProblem(f *testing.F) {
	for _, s := range []string{`{"id":1}`, `{"id":null,"method":"x"}`, `5`, `[`, `{"method":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		id, code, problem := envelopeProblem(body)
		if (problem == "") != (code == 0) {
			t.Fatalf("problem %q with code %d", problem, code)
		}
		if problem == "" && id != nil {
			t.Fatalf("an id %q without a problem", id)
		}
		if id != nil && !json.Valid(id) {
			t.Fatalf("id %q is not JSON", id)
		}
	})
}
