package scriptedmodel

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// Piece sizes of streamed text, small so that clients must reassemble.
const (
	textPiece = 7
	argsPiece = 5
)

type chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *Usage        `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int       `json:"index"`
	Delta        any       `json:"delta"`
	Logprobs     *struct{} `json:"logprobs"`
	FinishReason *string   `json:"finish_reason"`
}

// streamedMessage is a scripted message taken apart for streaming.
type streamedMessage struct {
	Content          *string `json:"content"`
	ReasoningContent string  `json:"reasoning_content"`
	ToolCalls        []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// writeStream sends a completion as server-sent events the way vLLM does:
// a role chunk, reasoning and content pieces, each tool call as a chunk with
// id and name followed by argument pieces, a chunk with the finish reason,
// an optional usage chunk, then [DONE].
func writeStream(w http.ResponseWriter, c completion, includeUsage bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	send := func(choices []chunkChoice, usage *Usage) {
		fmt.Fprintf(w, "data: %s\n\n", encode(chunk{ID: c.ID, Object: "chat.completion.chunk", Created: c.Created, Model: c.Model, Choices: choices, Usage: usage}))
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	delta := func(d any) { send([]chunkChoice{{Delta: d}}, nil) }

	for _, d := range messageDeltas(c.Choices[0].Message) {
		delta(d)
	}
	finish := c.Choices[0].FinishReason
	send([]chunkChoice{{Delta: map[string]any{}, FinishReason: &finish}}, nil)
	if includeUsage {
		send([]chunkChoice{}, &c.Usage)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// messageDeltas splits a message into the deltas of a stream. A message that
// does not have the usual shape is sent whole as one delta.
func messageDeltas(raw json.RawMessage) []any {
	var m streamedMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return []any{raw}
	}
	deltas := []any{map[string]any{"role": "assistant", "content": ""}}
	for _, p := range pieces(m.ReasoningContent, textPiece) {
		deltas = append(deltas, map[string]any{"reasoning_content": p})
	}
	if m.Content != nil {
		for _, p := range pieces(*m.Content, textPiece) {
			deltas = append(deltas, map[string]any{"content": p})
		}
	}
	for i, tc := range m.ToolCalls {
		head := map[string]any{"index": i, "id": tc.ID, "type": tc.Type, "function": map[string]any{"name": tc.Function.Name}}
		deltas = append(deltas, map[string]any{"tool_calls": []any{head}})
		for _, p := range pieces(argumentsText(tc.Function.Arguments), argsPiece) {
			part := map[string]any{"index": i, "function": map[string]any{"arguments": p}}
			deltas = append(deltas, map[string]any{"tool_calls": []any{part}})
		}
	}
	return deltas
}

// argumentsText is the text a client accumulates: a string's value, or the
// raw JSON of an object.
func argumentsText(raw json.RawMessage) string {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	if string(raw) == "null" {
		return ""
	}
	return string(raw)
}

// pieces cuts s into parts of at most size bytes without splitting a rune.
func pieces(s string, size int) []string {
	var out []string
	for len(s) > 0 {
		n := min(size, len(s))
		for n < len(s) && n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		if n == 0 {
			_, n = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}
