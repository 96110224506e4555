package scriptedmodel

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

const chatBody = `{"model":"orchestrator-8b","messages":[{"role":"user","content":"hi"}]}`

func TestReplaysInOrderAndRecords(t *testing.T) {
	s := New(
		ToolCallReply("Need data.", "search", `{"model": "search-2"}`).WithUsage(1830, 64),
		RawTextReply("<think>\nEasy.\n</think>\nThe answer is 42."),
	)
	defer s.Close()

	bodies := []string{chatBody, strings.Replace(chatBody, "hi", "second", 1), strings.Replace(chatBody, "hi", "third", 1)}
	first := post(t, s.URL(), bodies[0])
	msg, usage := completionMessage(t, readAll(t, first.Body))
	want := decodedMessage{Content: "<think>\nNeed data.\n</think>\n\n", FinishReason: "tool_calls",
		ToolCalls: []decodedCall{{"chatcmpl-tool-1", "function", "search", `{"model": "search-2"}`}}}
	if !sameMessage(msg, want) || usage != (Usage{1830, 64, 1894}) {
		t.Errorf("first reply = %+v, usage %+v", msg, usage)
	}

	second := post(t, s.URL(), bodies[1])
	msg, usage = completionMessage(t, readAll(t, second.Body))
	if msg.Content != "<think>\nEasy.\n</think>\nThe answer is 42." || msg.FinishReason != "stop" || len(msg.ToolCalls) != 0 {
		t.Errorf("second reply = %+v", msg)
	}
	if usage.PromptTokens != (len(bodies[1])+3)/4 || usage.TotalTokens != usage.PromptTokens+usage.CompletionTokens || usage.CompletionTokens == 0 {
		t.Errorf("estimated usage = %+v", usage)
	}

	third := post(t, s.URL(), bodies[2])
	if third.StatusCode != http.StatusInternalServerError || !strings.Contains(string(readAll(t, third.Body)), "script exhausted at request 3") {
		t.Errorf("exhausted script answered %d", third.StatusCode)
	}

	got := s.Requests()
	if len(got) != 3 {
		t.Fatalf("recorded %d requests, want 3", len(got))
	}
	for i, b := range got {
		if string(b) != bodies[i] {
			t.Errorf("request %d = %s, want %s", i, b, bodies[i])
		}
	}
	got[0][0] = 'X'
	if s.Requests()[0][0] != '{' {
		t.Error("Requests exposes the recorded bytes")
	}
}

func TestParsedFormIsTheProtocolExample(t *testing.T) {
	s := New(ToolCallReply("Need data.", "search", `{"model": "search-2"}`).WithUsage(1830, 64))
	defer s.Close()
	body := string(readAll(t, post(t, s.URL(), chatBody).Body))
	want := `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"orchestrator-8b","choices":[{"index":0,` +
		`"message":{"role":"assistant","content":"<think>\nNeed data.\n</think>\n\n",` +
		`"tool_calls":[{"id":"chatcmpl-tool-1","type":"function","function":{"name":"search","arguments":"{\"model\": \"search-2\"}"}}]},` +
		`"logprobs":null,"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1830,"completion_tokens":64,"total_tokens":1894}}`
	if body != compactJSON(t, want) {
		t.Errorf("body =\n%s\nwant\n%s", body, want)
	}
}

func TestReplyBuilders(t *testing.T) {
	tests := []struct {
		name  string
		reply Reply
		want  string // choices[0].message
	}{
		{"raw tool call", RawToolCallReply("Need data.", Call{"search", `{"model": "search-2"}`}),
			`{"role":"assistant","content":"<think>\nNeed data.\n</think>\n\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"model\": \"search-2\"}}\n</tool_call>"}`},
		{"raw malformed call", RawToolCallReply("", Call{"search", `{"model": }`}),
			`{"role":"assistant","content":"<tool_call>\n{\"name\": \"search\", \"arguments\": {\"model\": }}\n</tool_call>"}`},
		{"parsed without think", ToolCallReply("", "answer", `{}`),
			`{"role":"assistant","content":null,"tool_calls":[{"id":"chatcmpl-tool-1","type":"function","function":{"name":"answer","arguments":"{}"}}]}`},
		{"reasoning field", ReasoningReply("Need data.", Call{"search", `{"model": "search-2"}`}),
			`{"role":"assistant","content":"","reasoning_content":"Need data.","tool_calls":[{"id":"chatcmpl-tool-1","type":"function","function":{"name":"search","arguments":"{\"model\": \"search-2\"}"}}]}`},
		{"arguments as object", ObjectArgsReply("search", `{"model":"search-2"}`),
			`{"role":"assistant","content":null,"tool_calls":[{"id":"chatcmpl-tool-1","type":"function","function":{"name":"search","arguments":{"model":"search-2"}}}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if string(tt.reply.Message) != tt.want {
				t.Errorf("message =\n%s\nwant\n%s", tt.reply.Message, tt.want)
			}
		})
	}
}

func TestErrorsMalformedBodiesAndDelays(t *testing.T) {
	s := New(
		ErrorReply(http.StatusInternalServerError),
		MalformedBodyReply(`{"id": "chatcmpl-x", "choices": [`),
		TruncatedReply("<tool_call>\n{\"name\": \"ans"),
		RawTextReply("late").WithDelay(time.Minute),
	)
	defer s.Close()

	r := post(t, s.URL(), chatBody)
	var e struct {
		Error struct {
			Type string `json:"type"`
			Code int    `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(readAll(t, r.Body), &e); err != nil || r.StatusCode != 500 || e.Error.Code != 500 || e.Error.Type != "server_error" {
		t.Errorf("error reply: status %d, body %+v, %v", r.StatusCode, e, err)
	}

	r = post(t, s.URL(), chatBody)
	if b := readAll(t, r.Body); r.StatusCode != 200 || string(b) != `{"id": "chatcmpl-x", "choices": [` {
		t.Errorf("malformed reply: %d %s", r.StatusCode, b)
	}

	msg, _ := completionMessage(t, readAll(t, post(t, s.URL(), chatBody).Body))
	if msg.FinishReason != "length" {
		t.Errorf("truncated reply finish = %q", msg.FinishReason)
	}

	impatient := &http.Client{Timeout: 50 * time.Millisecond}
	if resp, err := impatient.Post(s.URL()+"/v1/chat/completions", "application/json", strings.NewReader(chatBody)); err == nil {
		resp.Body.Close()
		t.Errorf("a reply delayed by a minute arrived: %d", resp.StatusCode)
	}
	if len(s.Requests()) != 4 || s.Remaining() != 0 {
		t.Errorf("requests %d, remaining %d", len(s.Requests()), s.Remaining())
	}
}

func TestInvalidRequestDoesNotConsumeTheScript(t *testing.T) {
	s := New(RawTextReply("ok"))
	defer s.Close()
	if r := post(t, s.URL(), `{"model":`); r.StatusCode != http.StatusBadRequest {
		t.Errorf("invalid body answered %d", r.StatusCode)
	}
	if s.Remaining() != 1 || len(s.Requests()) != 0 {
		t.Errorf("remaining %d, recorded %d", s.Remaining(), len(s.Requests()))
	}
}

func TestLoopRestartsTheScript(t *testing.T) {
	s := New(RawTextReply("a"), RawTextReply("b"))
	defer s.Close()
	s.SetLoop(true)
	var got []string
	for i := 0; i < 3; i++ {
		msg, _ := completionMessage(t, readAll(t, post(t, s.URL(), chatBody).Body))
		got = append(got, msg.Content)
	}
	if strings.Join(got, "") != "aba" {
		t.Errorf("replies = %v", got)
	}
}

func TestLoadScriptReplaysTheFile(t *testing.T) {
	script, err := LoadScript("testdata/research_episode.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(script) != 4 || script[1].Status != 500 || script[2].Delay != 10*time.Millisecond {
		t.Fatalf("script = %+v", script)
	}
	s := New(script...)
	defer s.Close()

	first, usage := completionMessage(t, readAll(t, post(t, s.URL(), chatBody).Body))
	if first.ToolCalls[0].Name != "search" || first.FinishReason != "tool_calls" || usage.PromptTokens != 1830 {
		t.Errorf("first = %+v, usage %+v", first, usage)
	}
	if r := post(t, s.URL(), chatBody); r.StatusCode != http.StatusInternalServerError {
		t.Errorf("second status = %d", r.StatusCode)
	}
	third, _ := completionMessage(t, readAll(t, post(t, s.URL(), chatBody).Body))
	if !strings.Contains(third.Content, `"name": "enhance_reasoning"`) || third.FinishReason != "stop" {
		t.Errorf("third = %+v", third)
	}
	fourth, _ := completionMessage(t, readAll(t, post(t, s.URL(), chatBody).Body))
	if fourth.ReasoningContent != "The code confirms p = 3." || fourth.ToolCalls[0].Arguments != `{"model":"answer-4"}` {
		t.Errorf("fourth = %+v", fourth)
	}
}

func TestParseScriptErrors(t *testing.T) {
	tests := []struct{ name, script, want string }{
		{"not an array", `{}`, "cannot unmarshal"},
		{"empty entry", `[{}]`, "entry 0: an entry needs"},
		{"message and content", `[{"message": {"role":"assistant"}, "content": "x"}]`, "either message or content"},
		{"bad delay", `[{"content": "x", "delay": "soon"}]`, `delay "soon"`},
		{"unknown field", `[{"content": "x", "sleep": "1s"}]`, `unknown field "sleep"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseScript([]byte(tt.script))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
}
