package policies

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseReply feeds arbitrary content, reasoning text and tool-call
// arguments. A reply must never panic, and every candidate must either carry
// an error or a name with a compact JSON object as arguments; selection must
// account for every candidate exactly once.
func FuzzParseReply(f *testing.F) {
	seeds := []struct{ content, reasoning, name, args string }{
		{"<think>\nNeed data.\n</think>\n\n", "", "search", `{"model": "search-2"}`},
		{"<think>x</think>\n\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"model\": \"search-2\"}}\n</tool_call>", "", "", ""},
		{"<tool_call>\n{\"name\": \"search\", \"arguments\": {\"model\": }\n</tool_call>", "", "", ""},
		{"<tool_call>\n{\"name\": \"ans", "", "", ""},
		{"<tool_call>{\"name\":\"answer\",\"arguments\":\"{\\\"model\\\":\\\"answer-4\\\"}\"}<tool_call></tool_call>", "", "", ""},
		{"", "<tool_call>{\"name\":\"search\"}</tool_call>", "", ""},
		{"<message>Done.</message>", "", "web_browse", `"{\"model\": 1}"`},
		{"", "", "answer", `{"model": search-2}`},
		{"", "", "", "null"},
		{"<think><tool_call></think></tool_call>", "</tool_call><tool_call>", "x", "[]"},
	}
	for _, s := range seeds {
		f.Add(s.content, s.reasoning, s.name, s.args)
	}
	f.Fuzz(func(t *testing.T, content, reasoning, name, args string) {
		msg := Message{Role: RoleAssistant, Content: content, ReasoningContent: reasoning}
		if name != "" || args != "" {
			msg.ToolCalls = []ToolCall{{ID: "c1", Type: "function", Function: FunctionCall{Name: name, Arguments: Arguments(args)}}}
		}
		r := ParseReply(msg)
		for i, c := range r.Candidates {
			if c.Err != nil {
				continue
			}
			if c.Name == "" {
				t.Fatalf("candidate %d has no name and no error: %+v", i, c)
			}
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(c.Arguments, &obj); err != nil {
				t.Fatalf("candidate %d arguments %q are not a JSON object: %v", i, c.Arguments, err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, c.Arguments); err != nil || !bytes.Equal(compact.Bytes(), c.Arguments) {
				t.Fatalf("candidate %d arguments %q are not compact", i, c.Arguments)
			}
		}
		call, rejected := SelectResearchCall(r.Candidates, paperOffered())
		accounted := len(rejected)
		if call != nil {
			accounted++
		}
		if accounted != len(r.Candidates) {
			t.Fatalf("%d candidates, %d accounted for", len(r.Candidates), accounted)
		}
		d := SelectToolModeCalls(r.Candidates, []string{"search", "x"}, []string{"expert-1"})
		accounted = len(d.Calls) + len(d.Rejected)
		if d.Expert != nil {
			accounted++
		}
		if accounted != len(r.Candidates) || len(d.Calls) > MaxToolModeCalls || (d.Expert != nil && len(d.Calls) > 0) {
			t.Fatalf("tool mode decision %+v for %d candidates", d, len(r.Candidates))
		}
	})
}

// FuzzArgumentsDecode checks that any JSON value decodes into Arguments and
// that the result parses or fails cleanly.
func FuzzArgumentsDecode(f *testing.F) {
	for _, s := range []string{`"{\"a\":1}"`, `{"a":1}`, `null`, `[1]`, `"x"`, `""`, `"\"{}\""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		var fc FunctionCall
		body := []byte(`{"name":"f","arguments":` + value + `}`)
		if !json.Valid(body) {
			return
		}
		if err := json.Unmarshal(body, &fc); err != nil {
			t.Fatalf("valid JSON %s did not decode: %v", body, err)
		}
		c := candidateFromToolCall(ToolCall{Function: fc})
		if c.Err == nil && !json.Valid(c.Arguments) {
			t.Fatalf("arguments %q accepted but invalid", c.Arguments)
		}
	})
}

func FuzzExtractBoxed(f *testing.F) {
	for _, s := range []string{`\boxed{1}`, `\boxed{\frac{1}{2}}`, `\boxed{`, `\boxed{\}`, `a}\boxed{{}`, "\\boxed{\xff}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		got, ok := ExtractBoxed(reply)
		if ok != (got != "") {
			t.Fatalf("ok=%v with answer %q", ok, got)
		}
		if ok && !strings.Contains(reply, got) {
			t.Fatalf("answer %q is not part of the reply", got)
		}
		if ok && !strings.Contains(reply, `\boxed{`) {
			t.Fatalf("answer %q without a box", got)
		}
	})
}

func FuzzExtractQuery(f *testing.F) {
	for _, s := range []string{"<query>BRCA1</query>", "plain text query", "<think>x</think>", "<query>", strings.Repeat("é", 400)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		got, ok := ExtractQuery(reply)
		n := utf8.RuneCountInString(got)
		if ok != (got != "") || (ok && (n < minQueryChars || n > maxQueryChars)) {
			t.Fatalf("ExtractQuery = %q (%d characters), ok=%v", got, n, ok)
		}
		if ok && utf8.ValidString(reply) && !utf8.ValidString(got) {
			t.Fatalf("query %q is not valid UTF-8", got)
		}
		if got != strings.TrimSpace(got) {
			t.Fatalf("query %q is not trimmed", got)
		}
	})
}

// BenchmarkParseReply covers a typical raw reply and a hostile one of
// 10,000 unclosed <tool_call> openers, which must stay linear.
func BenchmarkParseReply(b *testing.B) {
	replies := map[string]string{
		"typical": "<think>\nI lack the figure; search first.\n</think>\n\n" + block(`{"name": "search", "arguments": {"model": "search-2"}}`),
		"hostile": strings.Repeat("<tool_call>{", 10000),
	}
	for name, content := range replies {
		b.Run(name, func(b *testing.B) {
			msg := raw(content)
			for b.Loop() {
				ParseReply(msg)
			}
		})
	}
}
