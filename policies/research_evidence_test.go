package policies

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

func TestSearchDocs(t *testing.T) {
	cases := []struct {
		name string
		raw  string
		want []string
	}{
		{"passages in full, best first",
			`{"content":[{"type":"text","text":"2 passages for \"q\" (bm25):\n\n1. /a.md [bytes 0-188, score 0.353]\n**bold** snippet"}],
			  "structuredContent":{"query":"q","hits":[{"path":"/a.md","snippet":"**bold**"}],
			  "passages":[{"path":"/a.md","text":"The whole first passage.","score":0.35},{"path":"/b.md","text":"The second.","score":0.2}]}}`,
			[]string{"The whole first passage.", "The second."}},
		{"a title leads a text that lacks it",
			`{"structuredContent":{"passages":[{"path":"/t.md","title":"Travel policy","text":"The per diem is 42 euros."}]}}`,
			[]string{"Travel policy\nThe per diem is 42 euros."}},
		{"a title already on the first line is not repeated",
			`{"structuredContent":{"passages":[{"path":"/t.md","title":"Travel policy","text":"# Travel policy\n\nThe per diem is 42 euros."}]}}`,
			[]string{"# Travel policy\n\nThe per diem is 42 euros."}},
		{"blank passages are dropped",
			`{"structuredContent":{"passages":[{"path":"/x","text":"  "},{"path":"/y","text":"kept"}]}}`,
			[]string{"kept"}},
		{"no passages: one document per text part",
			`{"content":[{"type":"text","text":"Paris is the capital."},{"type":"text","text":"Lyon is a city."}]}`,
			[]string{"Paris is the capital.", "Lyon is a city."}},
		{"empty passages: nothing found",
			`{"content":[{"type":"text","text":"No passages match \"q\" (bm25)."}],"structuredContent":{"passages":[]}}`,
			[]string{}},
		{"not JSON", `{`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := searchDocs(json.RawMessage(tc.raw)); !slices.Equal(got, tc.want) {
				t.Errorf("searchDocs = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCodeStdout(t *testing.T) {
	cases := []struct {
		name    string
		raw     string
		isError bool
		want    string
	}{
		{"built-in success: stdout, no banner",
			`{"content":[{"type":"text","text":"exit status 0; sandbox: bubblewrap\n--- stdout ---\n42\n"}],
			  "structuredContent":{"exitCode":0,"stdout":"42\n","stderr":"","sandbox":"bubblewrap"}}`, false, "42\n"},
		{"built-in error: stdout only, no traceback",
			`{"content":[{"type":"text","text":"exit status 1; sandbox: bubblewrap\n--- stdout ---\npartial\n--- stderr ---\nTraceback"}],
			  "structuredContent":{"exitCode":1,"stdout":"partial\n","stderr":"Traceback","sandbox":"bubblewrap"}}`, true, "partial\n"},
		{"built-in timeout keeps nothing",
			`{"structuredContent":{"exitCode":-1,"timedOut":true,"stdout":"1\n2\n","sandbox":"limits-only"}}`, true, ""},
		{"built-in silent run",
			`{"content":[{"type":"text","text":"exit status 0; sandbox: bubblewrap\n(no output: print the values you want to see)"}],
			  "structuredContent":{"exitCode":0,"stdout":"","sandbox":"bubblewrap"}}`, false, ""},
		{"downstream python: its text", `{"content":[{"type":"text","text":"1024"}]}`, false, "1024"},
		{"downstream python error: nothing", `{"content":[{"type":"text","text":"NameError: x"}],"isError":true}`, true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := codeStdout(&hub.CallResult{Raw: json.RawMessage(tc.raw), IsError: tc.isError})
			if got != tc.want {
				t.Errorf("codeStdout = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSearchArgs(t *testing.T) {
	builtin := `{"type":"object","properties":{"query":{"type":"string"},"k":{"type":"number"},"mode":{"type":"string"},"ungrouped":{"type":"boolean"}}}`
	queryOnly := `{"type":"object","properties":{"query":{"type":"string"}}}`
	webSchema := `{"type":"object","properties":{"query":{"type":"string"},"max_results":{"type":"number","maximum":20}}}`
	cases := []struct {
		name, tool, schema, want string
	}{
		{"built-in documents: top 50 passages", ToolSearchDocuments, builtin, `{"k":50,"query":"per diem","ungrouped":true}`},
		{"documents tool taking only a query", ToolSearchDocuments, queryOnly, `{"query":"per diem"}`},
		{"web search: the fallback's 20 results", ToolWebSearch, webSchema, `{"max_results":20,"query":"per diem"}`},
		{"web search taking only a query", ToolWebSearch, queryOnly, `{"query":"per diem"}`},
		{"web search ignores the documents tool's k", ToolWebSearch, builtin, `{"query":"per diem"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tool := &hub.Tool{Name: tc.tool, RawTool: hub.RawTool{Name: tc.tool, InputSchema: json.RawMessage(tc.schema)}}
			if got := string(searchArgs(tool, "per diem", 0)); got != tc.want {
				t.Errorf("searchArgs = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestCodeArgs(t *testing.T) {
	cases := []struct {
		name, schema, want string
	}{
		{"built-in python: the reference's 60 s",
			`{"type":"object","properties":{"code":{"type":"string"},"timeout_seconds":{"type":"number","minimum":1,"maximum":60}}}`,
			`{"code":"print(1)","timeout_seconds":60}`},
		{"python whose maximum is lower: its maximum",
			`{"type":"object","properties":{"code":{"type":"string"},"timeout_seconds":{"type":"number","minimum":1,"maximum":20}}}`,
			`{"code":"print(1)","timeout_seconds":20}`},
		{"timeout without a maximum: 60 s",
			`{"type":"object","properties":{"code":{"type":"string"},"timeout_seconds":{"type":"number"}}}`,
			`{"code":"print(1)","timeout_seconds":60}`},
		{"python taking only code", `{"type":"object","properties":{"code":{"type":"string"}}}`, `{"code":"print(1)"}`},
		{"no schema", ``, `{"code":"print(1)"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tool := &hub.Tool{Name: ToolPython, RawTool: hub.RawTool{Name: ToolPython, InputSchema: json.RawMessage(tc.schema)}}
			if got := string(codeArgs(tool, "print(1)")); got != tc.want {
				t.Errorf("codeArgs = %s, want %s", got, tc.want)
			}
		})
	}
}
