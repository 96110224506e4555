package policies

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// The three well-formed reply forms of protocol §10, verbatim.
const (
	parsedFormResponse = `{"id":"chatcmpl-1","object":"chat.completion","model":"orchestrator-8b","choices":[{"index":0,
 "finish_reason":"tool_calls","message":{"role":"assistant","content":"<think>\nNeed data.\n</think>\n\n",
 "tool_calls":[{"id":"chatcmpl-tool-1","type":"function","function":{"name":"search","arguments":"{\"model\": \"search-2\"}"}}]}}],
 "usage":{"prompt_tokens":1830,"completion_tokens":64,"total_tokens":1894}}`
	rawFormResponse = `{"id":"chatcmpl-1","object":"chat.completion","model":"orchestrator-8b","choices":[{"index":0,
 "finish_reason":"stop","message":{"role":"assistant","content":"<think>\nNeed data.\n</think>\n\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"model\": \"search-2\"}}\n</tool_call>"}}],
 "usage":{"prompt_tokens":1830,"completion_tokens":64,"total_tokens":1894}}`
	reasoningFormResponse = `{"id":"chatcmpl-1","object":"chat.completion","model":"orchestrator-8b","choices":[{"index":0,
 "finish_reason":"tool_calls","message":{"role":"assistant","content":"","reasoning_content":"Need data.",
 "tool_calls":[{"id":"call_1","type":"function","function":{"name":"search","arguments":"{\"model\": \"search-2\"}"}}]}}],
 "usage":{"prompt_tokens":1830,"completion_tokens":64,"total_tokens":1894}}`
)

func TestWellFormedReplies(t *testing.T) {
	for name, body := range map[string]string{"parsed": parsedFormResponse, "raw text": rawFormResponse, "reasoning field": reasoningFormResponse} {
		t.Run(name, func(t *testing.T) {
			var resp ChatResponse
			if err := json.Unmarshal([]byte(body), &resp); err != nil {
				t.Fatal(err)
			}
			choice, err := resp.FirstChoice()
			if err != nil {
				t.Fatal(err)
			}
			r := ParseReply(choice.Message)
			call, rejected := SelectResearchCall(r.Candidates, paperOffered())
			if call == nil || call.Name != "search" || call.Alias != "search-2" || len(rejected) != 0 {
				t.Fatalf("call = %+v, rejected = %+v", call, rejected)
			}
			if string(call.Arguments) != `{"model":"search-2"}` {
				t.Errorf("arguments = %s", call.Arguments)
			}
			if r.Think != "Need data." || r.Content != "" {
				t.Errorf("think = %q, content = %q", r.Think, r.Content)
			}
			if resp.Usage == nil || resp.Usage.PromptTokens != 1830 {
				t.Errorf("usage = %+v", resp.Usage)
			}
		})
	}
}

// parsed builds a message whose tool_calls arrive as JSON, exactly as a
// server sends them: each entry is a function JSON object.
func parsed(t *testing.T, content string, functions ...string) Message {
	t.Helper()
	calls := make([]string, len(functions))
	for i, fn := range functions {
		calls[i] = `{"id":"chatcmpl-tool-` + string(rune('1'+i)) + `","type":"function","function":` + fn + `}`
	}
	body := `{"role":"assistant","content":` + jsonString(t, content) + `,"tool_calls":[` + strings.Join(calls, ",") + `]}`
	var m Message
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return m
}

func raw(content string) Message { return Message{Role: RoleAssistant, Content: content} }

func block(call string) string { return "<tool_call>\n" + call + "\n</tool_call>" }

// offeredWithoutCloud is the paper's set with the remote answer-1 removed,
// as the hub offers it while cloud models are off.
func offeredWithoutCloud() Offered {
	return OfferedFrom(withoutAliases(paperAliases(), "answer-1"))
}

func TestMalformedResearchReplies(t *testing.T) {
	const think = "<think>\nI lack the figure.\n</think>\n\n"
	tests := []struct {
		name      string
		msg       func(t *testing.T) Message
		offered   Offered
		wantCall  string // "tool/alias", "" for none
		wantNotes []string
	}{
		{"parsed invalid JSON", func(t *testing.T) Message {
			return parsed(t, think, `{"name":"search","arguments":"{\"model\": search-2}"}`)
		}, nil, "", []string{"invalid tool call: invalid JSON arguments: invalid character 's' looking for beginning of value"}},
		{"parsed invalid JSON, valid call after it", func(t *testing.T) Message {
			return parsed(t, think, `{"name":"search","arguments":"{\"model\": search-2}"}`, `{"name":"answer","arguments":"{\"model\": \"answer-4\"}"}`)
		}, nil, "answer/answer-4", []string{"invalid tool call: invalid JSON arguments: invalid character 's' looking for beginning of value"}},
		{"raw invalid JSON, valid block after it", func(t *testing.T) Message {
			return raw(think + block(`{"name": "search", "arguments": {"model": }`) + "\n" + block(`{"name": "search", "arguments": {"model": "search-3"}}`))
		}, nil, "search/search-3", []string{"invalid tool call: invalid JSON in <tool_call> block: invalid character '}' looking for beginning of value"}},
		{"parsed unknown tool", func(t *testing.T) Message {
			return parsed(t, think, `{"name":"web_browse","arguments":"{\"model\": \"search-2\"}"}`)
		}, nil, "", []string{`invalid tool call: unknown tool "web_browse"`}},
		{"raw unknown tool", func(t *testing.T) Message {
			return raw(think + block(`{"name": "web_browse", "arguments": {"url": "https://example.com"}}`))
		}, nil, "", []string{`invalid tool call: unknown tool "web_browse"`}},
		{"parsed alias not allowed (cloud off)", func(t *testing.T) Message {
			return parsed(t, think, `{"name":"answer","arguments":"{\"model\": \"answer-1\"}"}`)
		}, offeredWithoutCloud(), "", []string{`invalid tool call: alias "answer-1" is not offered for answer`}},
		{"raw alias unknown", func(t *testing.T) Message {
			return raw(think + block(`{"name": "search", "arguments": {"model": "search-9"}}`))
		}, nil, "", []string{`invalid tool call: alias "search-9" is not offered for search`}},
		{"parsed missing argument", func(t *testing.T) Message {
			return parsed(t, think, `{"name":"answer","arguments":"{}"}`)
		}, nil, "", []string{`invalid tool call: missing argument "model"`}},
		{"raw missing argument", func(t *testing.T) Message {
			return raw(think + block(`{"name":"answer","arguments":{}}`))
		}, nil, "", []string{`invalid tool call: missing argument "model"`}},
		{"parsed several calls", func(t *testing.T) Message {
			return parsed(t, think, `{"name":"search","arguments":"{\"model\": \"search-3\"}"}`, `{"name":"answer","arguments":"{\"model\": \"answer-4\"}"}`)
		}, nil, "search/search-3", []string{"ignored tool call answer: only the first valid call runs"}},
		{"raw several calls", func(t *testing.T) Message {
			return raw(think + block(`{"name": "search", "arguments": {"model": "search-3"}}`) + "\n" + block(`{"name": "answer", "arguments": {"model": "answer-4"}}`))
		}, nil, "search/search-3", []string{"ignored tool call answer: only the first valid call runs"}},
		{"parsed invalid then valid, same tool", func(t *testing.T) Message {
			return parsed(t, think, `{"name":"search","arguments":"{\"model\": \"search-9\"}"}`, `{"name":"search","arguments":"{\"model\": \"search-2\"}"}`)
		}, nil, "search/search-2", []string{`invalid tool call: alias "search-9" is not offered for search`}},
		{"raw invalid then valid, same tool", func(t *testing.T) Message {
			return raw(think + block(`{"name": "search", "arguments": {"model": "search-9"}}`) + block(`{"name": "search", "arguments": {"model": "search-2"}}`))
		}, nil, "search/search-2", []string{`invalid tool call: alias "search-9" is not offered for search`}},
		{"no call at all", func(t *testing.T) Message {
			return raw("<think>\nEasy.\n</think>\nThe answer is 42.")
		}, nil, "", nil},
		{"truncated", func(t *testing.T) Message {
			return raw(think + "<tool_call>\n{\"name\": \"ans")
		}, nil, "", []string{"invalid tool call: invalid JSON in <tool_call> block: unexpected end of JSON input"}},
		{"unclosed but complete", func(t *testing.T) Message {
			return raw(think + "<tool_call>\n{\"name\":\"answer\",\"arguments\":{\"model\":\"answer-4\"}}")
		}, nil, "answer/answer-4", nil},
		{"parsed arguments as object", func(t *testing.T) Message {
			return parsed(t, "", `{"name":"search","arguments":{"model":"search-2"}}`)
		}, nil, "search/search-2", nil},
		{"raw arguments as JSON string", func(t *testing.T) Message {
			return raw(block(`{"name": "search", "arguments": "{\"model\": \"search-2\"}"}`))
		}, nil, "search/search-2", nil},
		{"parsed arguments not an object", func(t *testing.T) Message {
			return parsed(t, "", `{"name":"search","arguments":"[\"search-2\"]"}`)
		}, nil, "", []string{"invalid tool call: arguments are not a JSON object"}},
		{"alias not a string", func(t *testing.T) Message {
			return raw(block(`{"name": "search", "arguments": {"model": 2}}`))
		}, nil, "", []string{`invalid tool call: argument "model" is not a string`}},
		{"block without name", func(t *testing.T) Message {
			return raw(block(`{"arguments": {"model": "search-2"}}`))
		}, nil, "", []string{"invalid tool call: missing tool name"}},
		{"empty block", func(t *testing.T) Message {
			return raw("<tool_call>\n</tool_call>")
		}, nil, "", []string{"invalid tool call: empty <tool_call> block"}},
		{"tool not offered this turn", func(t *testing.T) Message {
			return raw(block(`{"name": "search", "arguments": {"model": "search-2"}}`))
		}, OfferedFrom(onlyAliases(paperAliases(), "answer-4")), "", []string{`invalid tool call: tool "search" is not offered this turn`}},
		{"unclosed block before another", func(t *testing.T) Message {
			return raw("<tool_call>{\"name\": \"search\"<tool_call>" + `{"name": "answer", "arguments": {"model": "answer-2"}}` + "</tool_call>")
		}, nil, "answer/answer-2", []string{"invalid tool call: invalid JSON in <tool_call> block: unexpected end of JSON input"}},
		{"block in reasoning_content", func(t *testing.T) Message {
			return Message{Role: RoleAssistant, ReasoningContent: "Search first.\n" + block(`{"name": "search", "arguments": {"model": "search-1"}}`)}
		}, nil, "search/search-1", nil},
		{"reasoning blocks come before content blocks", func(t *testing.T) Message {
			return Message{Role: RoleAssistant, ReasoningContent: block(`{"name": "search", "arguments": {"model": "search-1"}}`),
				Content: block(`{"name": "answer", "arguments": {"model": "answer-2"}}`)}
		}, nil, "search/search-1", []string{"ignored tool call answer: only the first valid call runs"}},
		{"parsed calls win over text blocks", func(t *testing.T) Message {
			return parsed(t, block(`{"name": "answer", "arguments": {"model": "answer-2"}}`), `{"name":"search","arguments":"{\"model\": \"search-2\"}"}`)
		}, nil, "search/search-2", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			offered := tt.offered
			if offered == nil {
				offered = paperOffered()
			}
			call, rejected := SelectResearchCall(ParseReply(tt.msg(t)).Candidates, offered)
			got := ""
			if call != nil {
				got = call.Name + "/" + call.Alias
			}
			if got != tt.wantCall {
				t.Errorf("call = %q, want %q", got, tt.wantCall)
			}
			var notes []string
			for _, r := range rejected {
				notes = append(notes, r.Observation())
			}
			if !equalStrings(notes, tt.wantNotes) {
				t.Errorf("observations =\n%q\nwant\n%q", notes, tt.wantNotes)
			}
		})
	}
}

func TestNullContentDecodes(t *testing.T) {
	var m Message
	if err := json.Unmarshal([]byte(`{"role":"assistant","content":null,"tool_calls":[{"id":"x","type":"function","function":{"name":"search","arguments":null}}]}`), &m); err != nil {
		t.Fatal(err)
	}
	c := ParseReply(m).Candidates
	if m.Content != "" || len(c) != 1 || c[0].Err != nil || string(c[0].Arguments) != "{}" {
		t.Errorf("message = %+v, candidates = %+v", m, c)
	}
}

func TestArgumentsEncodeAsString(t *testing.T) {
	tc := ToolCall{ID: "c1", Type: "function", Function: FunctionCall{Name: "f", Arguments: `{"a":1}`}}
	b, err := json.Marshal(tc)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}` {
		t.Errorf("encoded = %s", b)
	}
}

func TestEmptyChoices(t *testing.T) {
	if _, err := (ChatResponse{}).FirstChoice(); !errors.Is(err, ErrNoChoices) {
		t.Errorf("err = %v", err)
	}
}

func TestCandidatesAreCapped(t *testing.T) {
	valid := block(`{"name": "search", "arguments": {"model": "search-2"}}`)
	r := ParseReply(Message{Role: RoleAssistant, ReasoningContent: strings.Repeat("<tool_call>{", 60), Content: strings.Repeat(valid, 10)})
	if len(r.Candidates) != MaxCandidates || r.Unread != 6 {
		t.Fatalf("%d candidates, %d unread; want %d and 6", len(r.Candidates), r.Unread, MaxCandidates)
	}
	if r.Candidates[59].Source != SourceReasoning || r.Candidates[60].Source != SourceContent || r.Candidates[63].Err != nil {
		t.Errorf("cap kept the wrong candidates: %+v", r.Candidates[58:])
	}
}
