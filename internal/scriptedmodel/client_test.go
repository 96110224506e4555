package scriptedmodel

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// decodedMessage is what a client ends up with, streamed or not.
type decodedMessage struct {
	Content          string
	ReasoningContent string
	ToolCalls        []decodedCall
	FinishReason     string
}

type decodedCall struct{ ID, Type, Name, Arguments string }

// post sends a chat request and returns the response.
func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func readAll(t *testing.T, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// completionMessage decodes a non-streaming completion.
func completionMessage(t *testing.T, body []byte) (decodedMessage, Usage) {
	t.Helper()
	var c struct {
		Choices []struct {
			Message struct {
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
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
		Usage Usage `json:"usage"`
	}
	if err := json.Unmarshal(body, &c); err != nil || len(c.Choices) != 1 {
		t.Fatalf("decode completion %s: %v", body, err)
	}
	m := c.Choices[0].Message
	out := decodedMessage{ReasoningContent: m.ReasoningContent, FinishReason: c.Choices[0].FinishReason}
	if m.Content != nil {
		out.Content = *m.Content
	}
	for _, tc := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, decodedCall{tc.ID, tc.Type, tc.Function.Name, argumentsText(tc.Function.Arguments)})
	}
	return out, c.Usage
}

// streamChunk is one SSE event of a streamed completion.
type streamChunk struct {
	Object  string `json:"object"`
	Choices []struct {
		Delta struct {
			Content          string `json:"content"`
			ReasoningContent string `json:"reasoning_content"`
			ToolCalls        []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *Usage `json:"usage"`
}

// readStream is a small SSE client: it accumulates the deltas of a streamed
// completion the way OpenAI clients do, and requires the [DONE] event.
func readStream(t *testing.T, r io.Reader) (decodedMessage, *Usage, int) {
	t.Helper()
	var msg decodedMessage
	var usage *Usage
	events, done := 0, false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("not an SSE data line: %q", line)
		}
		if data == "[DONE]" {
			done = true
			continue
		}
		events++
		var ch streamChunk
		if err := json.Unmarshal([]byte(data), &ch); err != nil || ch.Object != "chat.completion.chunk" {
			t.Fatalf("bad chunk %s: %v", data, err)
		}
		if ch.Usage != nil {
			usage = ch.Usage
		}
		for _, c := range ch.Choices {
			msg.Content += c.Delta.Content
			msg.ReasoningContent += c.Delta.ReasoningContent
			for _, tc := range c.Delta.ToolCalls {
				for len(msg.ToolCalls) <= tc.Index {
					msg.ToolCalls = append(msg.ToolCalls, decodedCall{})
				}
				call := &msg.ToolCalls[tc.Index]
				call.ID += tc.ID
				call.Type += tc.Type
				call.Name += tc.Function.Name
				call.Arguments += tc.Function.Arguments
			}
			if c.FinishReason != nil {
				msg.FinishReason = *c.FinishReason
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if !done {
		t.Fatal("stream ended without [DONE]")
	}
	return msg, usage, events
}

func sameMessage(a, b decodedMessage) bool {
	if a.Content != b.Content || a.ReasoningContent != b.ReasoningContent || a.FinishReason != b.FinishReason || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i := range a.ToolCalls {
		if a.ToolCalls[i] != b.ToolCalls[i] {
			return false
		}
	}
	return true
}

func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Every reply form, streamed, must decode into the message the
// non-streaming form carries.
func TestStreamMatchesNonStreaming(t *testing.T) {
	replies := map[string]Reply{
		"parsed":         ToolCallReply("Need data. Ünïcode → ok", "search", `{"model": "search-2"}`),
		"parsed, two":    ToolCallsReply("", Call{"travel__get_booking", `{"id":"X1"}`}, Call{"call_expert", `{"expert":"expert-2"}`}),
		"raw text":       RawToolCallReply("Need data.", Call{"answer", `{"model": "answer-4"}`}),
		"reasoning":      ReasoningReply("Need data.", Call{"search", `{"model": "search-2"}`}),
		"object args":    ObjectArgsReply("search", `{"model":"search-2"}`),
		"truncated":      TruncatedReply("<tool_call>\n{\"name\": \"ans"),
		"message only":   RawTextReply("<think>ok</think><message>Done.</message>"),
		"invalid args":   ToolCallReply("", "search", `{"model": search-2}`),
		"fixed usage":    RawTextReply("x").WithUsage(10, 1),
		"empty":          RawTextReply(""),
		"long multibyte": RawTextReply(strings.Repeat("漢字かな", 30)),
	}
	for name, reply := range replies {
		t.Run(name, func(t *testing.T) {
			s := New(reply, reply)
			defer s.Close()
			plain, usage := completionMessage(t, readAll(t, post(t, s.URL(), chatBody).Body))

			streamed := post(t, s.URL(), `{"model":"orchestrator-8b","stream":true,"stream_options":{"include_usage":true},"messages":[]}`)
			if ct := streamed.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Fatalf("content type %q", ct)
			}
			got, streamedUsage, events := readStream(t, streamed.Body)
			if !sameMessage(got, plain) {
				t.Errorf("streamed  %+v\nplain     %+v", got, plain)
			}
			if streamedUsage == nil || streamedUsage.CompletionTokens != usage.CompletionTokens {
				t.Errorf("streamed usage %+v, plain %+v", streamedUsage, usage)
			}
			if len(plain.Content) > 2*textPiece && events < 4 {
				t.Errorf("only %d events: the content was not split", events)
			}
		})
	}
}

func TestStreamWithoutUsage(t *testing.T) {
	s := New(RawTextReply("hello"))
	defer s.Close()
	msg, usage, _ := readStream(t, post(t, s.URL(), `{"model":"m","stream":true,"messages":[]}`).Body)
	if msg.Content != "hello" || usage != nil {
		t.Errorf("message %+v, usage %+v", msg, usage)
	}
}

func TestPiecesKeepRunes(t *testing.T) {
	for _, s := range []string{"", "abc", "漢字かな漢字", "a\xffb", strings.Repeat("é", 10)} {
		got := pieces(s, 2)
		if strings.Join(got, "") != s {
			t.Errorf("pieces(%q) = %q", s, got)
		}
		for _, p := range got {
			if p == "" {
				t.Errorf("pieces(%q) has an empty piece", s)
			}
		}
	}
}
