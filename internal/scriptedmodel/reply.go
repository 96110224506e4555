package scriptedmodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// Reply is one scripted answer to POST /v1/chat/completions.
type Reply struct {
	// Status is the HTTP status; 0 means 200. A non-200 status sends an
	// OpenAI-style error body instead of a completion.
	Status int
	// Delay holds the answer back; a client that gives up first sees a
	// timeout.
	Delay time.Duration
	// Message is choices[0].message, sent as given (whitespace between JSON
	// tokens is compacted; string values are untouched).
	Message json.RawMessage
	// FinishReason is choices[0].finish_reason ("stop" when empty).
	FinishReason string
	// Usage overrides the estimated token counts.
	Usage *Usage
	// RawBody, when set, is sent as the whole response body, as is.
	RawBody string
}

// Usage is the usage object of a completion.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Call is one tool call for the reply builders; Args is JSON text, sent as
// written (it may be malformed on purpose).
type Call struct {
	Name string
	Args string
}

// wireMessage builds a message with content null when nil.
type wireMessage struct {
	Role             string         `json:"role"`
	Content          *string        `json:"content"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolCallReply is the parsed form vLLM's hermes parser returns: content is
// the think block (null without one), arguments a JSON string, finish_reason
// "tool_calls".
func ToolCallReply(think, name, argsJSON string) Reply {
	return ToolCallsReply(think, Call{Name: name, Args: argsJSON})
}

// ToolCallsReply is the parsed form with several calls.
func ToolCallsReply(think string, calls ...Call) Reply {
	var content *string
	if think != "" {
		content = ptr(thinkBlock(think))
	}
	return Reply{Message: encode(wireMessage{Role: "assistant", Content: content, ToolCalls: toolCalls(calls, true)}), FinishReason: "tool_calls"}
}

// ObjectArgsReply is a parsed form whose arguments are a JSON object rather
// than a string, as some servers send.
func ObjectArgsReply(name, argsJSON string) Reply {
	calls := toolCalls([]Call{{Name: name, Args: argsJSON}}, false)
	return Reply{Message: encode(wireMessage{Role: "assistant", ToolCalls: calls}), FinishReason: "tool_calls"}
}

// ReasoningReply is llama-server's form: the think text in
// reasoning_content, content empty, the calls parsed.
func ReasoningReply(think string, calls ...Call) Reply {
	msg := wireMessage{Role: "assistant", Content: ptr(""), ReasoningContent: think, ToolCalls: toolCalls(calls, true)}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	return Reply{Message: encode(msg), FinishReason: finish}
}

// RawToolCallReply is the raw-text form (no parser, or an unrecognised
// template): the think block then one <tool_call> block per call, all in
// content, finish_reason "stop".
func RawToolCallReply(think string, calls ...Call) Reply {
	var b strings.Builder
	if think != "" {
		b.WriteString(thinkBlock(think))
	}
	for i, c := range calls {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "<tool_call>\n{\"name\": %s, \"arguments\": %s}\n</tool_call>", encode(c.Name), c.Args)
	}
	return RawTextReply(b.String())
}

// RawTextReply is a plain text reply with finish_reason "stop".
func RawTextReply(content string) Reply {
	return Reply{Message: encode(wireMessage{Role: "assistant", Content: ptr(content)}), FinishReason: "stop"}
}

// TruncatedReply is a text reply cut by max_tokens: finish_reason "length".
func TruncatedReply(content string) Reply {
	r := RawTextReply(content)
	r.FinishReason = "length"
	return r
}

// ErrorReply answers with an HTTP error status and an OpenAI error body.
func ErrorReply(status int) Reply { return Reply{Status: status} }

// MalformedBodyReply answers 200 with a body that is not a completion.
func MalformedBodyReply(body string) Reply { return Reply{RawBody: body} }

// WithDelay returns the reply held back by d.
func (r Reply) WithDelay(d time.Duration) Reply { r.Delay = d; return r }

// WithUsage returns the reply with fixed token counts.
func (r Reply) WithUsage(prompt, completion int) Reply {
	r.Usage = &Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	return r
}

func thinkBlock(think string) string { return "<think>\n" + think + "\n</think>\n\n" }

// toolCalls numbers calls chatcmpl-tool-1, -2, ... within the reply.
func toolCalls(calls []Call, argsAsString bool) []wireToolCall {
	out := make([]wireToolCall, len(calls))
	for i, c := range calls {
		args := json.RawMessage(c.Args)
		if argsAsString || !json.Valid(args) {
			args = encode(c.Args)
		}
		out[i] = wireToolCall{ID: fmt.Sprintf("chatcmpl-tool-%d", i+1), Type: "function", Function: wireFunction{Name: c.Name, Arguments: args}}
	}
	return out
}

// encode marshals without HTML escaping; the values here cannot fail.
func encode(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func ptr[T any](v T) *T { return &v }

// fileReply is one entry of a script file:
//
//	{"message": {...}, "finish_reason": "tool_calls", "usage": {...}}  a completion, message verbatim
//	{"content": "<think>...</think>\nThe answer is 42."}                  a plain text reply
//	{"status": 500}                                                      an HTTP error
//	{"raw_body": "{not json"}                                            a body sent as is
//
// Any entry may add "delay": "2s".
type fileReply struct {
	Status       int             `json:"status"`
	Delay        string          `json:"delay"`
	Message      json.RawMessage `json:"message"`
	Content      *string         `json:"content"`
	FinishReason string          `json:"finish_reason"`
	Usage        *Usage          `json:"usage"`
	RawBody      string          `json:"raw_body"`
}

// ParseScript reads a script: a JSON array of replies (see fileReply).
func ParseScript(data []byte) ([]Reply, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var entries []fileReply
	if err := dec.Decode(&entries); err != nil {
		return nil, fmt.Errorf("parse script: %w", err)
	}
	replies := make([]Reply, len(entries))
	for i, e := range entries {
		r, err := e.reply()
		if err != nil {
			return nil, fmt.Errorf("parse script: entry %d: %w", i, err)
		}
		replies[i] = r
	}
	return replies, nil
}

// LoadScript reads a script file.
func LoadScript(path string) ([]Reply, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load script: %w", err)
	}
	return ParseScript(data)
}

func (e fileReply) reply() (Reply, error) {
	var r Reply
	switch {
	case e.Content != nil && len(e.Message) > 0:
		return Reply{}, fmt.Errorf("set either message or content, not both")
	case e.Content != nil:
		r = RawTextReply(*e.Content)
	case len(e.Message) > 0:
		r.Message = e.Message
	case e.Status == 0 && e.RawBody == "":
		return Reply{}, fmt.Errorf("an entry needs message, content, status or raw_body")
	}
	if e.FinishReason != "" {
		r.FinishReason = e.FinishReason
	}
	r.Status, r.Usage, r.RawBody = e.Status, e.Usage, e.RawBody
	if e.Delay != "" {
		d, err := time.ParseDuration(e.Delay)
		if err != nil || d < 0 {
			return Reply{}, fmt.Errorf("delay %q is not a duration", e.Delay)
		}
		r.Delay = d
	}
	return r, nil
}
