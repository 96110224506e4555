package policies

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Roles of chat messages.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// ChatRequest is the body of POST /v1/chat/completions, field for field as in
// OpenAI's Chat Completions API. Temperature is a pointer so that 0 is sent.
type ChatRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Tools       []Tool    `json:"tools,omitempty"`
	ToolChoice  any       `json:"tool_choice,omitempty"`
	Temperature *float64  `json:"temperature,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	// MaxCompletionTokens replaces MaxTokens for OpenAI's reasoning models.
	MaxCompletionTokens int            `json:"max_completion_tokens,omitempty"`
	ParallelToolCalls   *bool          `json:"parallel_tool_calls,omitempty"`
	Stream              bool           `json:"stream,omitempty"`
	StreamOptions       *StreamOptions `json:"stream_options,omitempty"`
}

// StreamOptions asks a streaming server for a final usage chunk.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Message is one chat message. Content is always sent (an assistant message
// that only calls tools carries ""); a null content decodes to "".
// ReasoningContent is where llama-server and some vLLM setups put the think
// text.
type Message struct {
	Role             string     `json:"role"`
	Content          string     `json:"content"`
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	ToolCalls        []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string     `json:"tool_call_id,omitempty"`
	Name             string     `json:"name,omitempty"`
}

// ToolCall is one entry of an assistant message's tool_calls.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the function and carries its arguments.
type FunctionCall struct {
	Name      string    `json:"name"`
	Arguments Arguments `json:"arguments"`
}

// Arguments is a function call's arguments as JSON text. The API sends them
// as a JSON string holding JSON; some servers send the object itself.
// Decoding accepts both (and null); encoding always produces the string form.
type Arguments string

// UnmarshalJSON keeps a string's value, or the raw text of any other JSON.
func (a *Arguments) UnmarshalJSON(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	switch {
	case bytes.Equal(trimmed, []byte("null")):
		*a = ""
	case len(trimmed) > 0 && trimmed[0] == '"':
		var s string
		if err := json.Unmarshal(trimmed, &s); err != nil {
			return err
		}
		*a = Arguments(s)
	default:
		*a = Arguments(trimmed)
	}
	return nil
}

// Tool is one entry of a request's tools.
type Tool struct {
	Type     string      `json:"type"`
	Function FunctionDef `json:"function"`
}

// FunctionDef describes a function the model may call. Parameters is a JSON
// schema kept as raw bytes so that its key order is sent as written: the
// Qwen3 chat template prints tools in the order it receives them.
type FunctionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// ChatResponse is a non-streaming chat completion.
type ChatResponse struct {
	ID      string   `json:"id"`
	Object  string   `json:"object"`
	Created int64    `json:"created,omitempty"`
	Model   string   `json:"model"`
	Choices []Choice `json:"choices"`
	Usage   *Usage   `json:"usage,omitempty"`
}

// Choice is one completion choice.
type Choice struct {
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	FinishReason string  `json:"finish_reason"`
}

// Usage counts the tokens of one call.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// ErrNoChoices reports a completion without any choice.
var ErrNoChoices = errors.New("chat completion has no choices")

// FirstChoice returns the first choice, the only one toolhub asks for.
func (r ChatResponse) FirstChoice() (Choice, error) {
	if len(r.Choices) == 0 {
		return Choice{}, ErrNoChoices
	}
	return r.Choices[0], nil
}

// EncodeRequest renders a request body as toolhub sends it: compact JSON
// without HTML escaping, so "<think>" stays readable on the wire.
func EncodeRequest(req ChatRequest) ([]byte, error) {
	return encodeJSON(req, "")
}

// EncodeRequestIndent renders the same body pretty-printed, for golden files
// and logs.
func EncodeRequestIndent(req ChatRequest) ([]byte, error) {
	return encodeJSON(req, "  ")
}

func encodeJSON(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode json: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// mustRawJSON encodes values built by this package, which cannot fail.
func mustRawJSON(v any) json.RawMessage {
	b, err := encodeJSON(v, "")
	if err != nil {
		panic(err)
	}
	return b
}

func float64Ptr(f float64) *float64 { return &f }
