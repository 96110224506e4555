package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolhub/toolhub/hub"
)

// defaultSamplingMaxTokens is asked for when the chat body sets no limit;
// MCP sampling requires one.
const defaultSamplingMaxTokens = 1024

// completeBySampling serves a chat completion body through the calling MCP
// client's own model: the OpenAI-style messages become one
// sampling/createMessage request to the client found in ctx (ClientFrom),
// and its answer comes back as an OpenAI-style completion body, so callers
// read it like any other reply. Sampling carries text only: tool
// definitions, tool calls and images in the body are not passed on (tool
// results and earlier calls are sent as text), and the reply never has
// tool_calls. The client reports no usage, so tokens are estimated; what it
// paid is unknown, so the reply says CostUnknown.
func (m *Model) completeBySampling(ctx context.Context, body []byte) (*ModelReply, error) {
	client, err := hub.RequireClient(ctx, hub.CapabilitySampling)
	if err != nil {
		return nil, fmt.Errorf("model %q is the MCP client's own model: %w", m.endpoint.Name, err)
	}
	params, err := samplingParams(body, m.endpoint.ModelID)
	if err != nil {
		return nil, fmt.Errorf("model %q: %w", m.endpoint.Name, err)
	}
	callCtx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	start := time.Now()
	answer, err := client.CreateMessage(callCtx, params)
	elapsed := time.Since(start)
	m.stats.Record(elapsed, err != nil)
	if err != nil {
		return nil, fmt.Errorf("model %q: sampling through the MCP client: %w", m.endpoint.Name, err)
	}
	completion, err := completionFromSample(answer)
	if err != nil {
		return nil, fmt.Errorf("model %q: %w", m.endpoint.Name, err)
	}
	reply := readReply(completion, len(body))
	reply.CostUnknown = true
	reply.Duration = elapsed
	return reply, nil
}

// chatBody is the part of an OpenAI chat completion body sampling can carry.
type chatBody struct {
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCalls  json.RawMessage `json:"tool_calls"`
		ToolCallID string          `json:"tool_call_id"`
	} `json:"messages"`
	MaxTokens           int             `json:"max_tokens"`
	MaxCompletionTokens int             `json:"max_completion_tokens"`
	Temperature         *float64        `json:"temperature"`
	Stop                json.RawMessage `json:"stop"`
}

// samplingParams turns a chat body into sampling/createMessage params:
// system messages become the system prompt, tool messages user text.
func samplingParams(body []byte, modelHint string) (json.RawMessage, error) {
	var chat chatBody
	if err := json.Unmarshal(body, &chat); err != nil {
		return nil, fmt.Errorf("read chat body: %w", err)
	}
	var system []string
	messages := make([]map[string]any, 0, len(chat.Messages))
	for _, msg := range chat.Messages {
		text := chatText(msg.Content)
		switch msg.Role {
		case "system", "developer":
			system = append(system, text)
			continue
		case "tool":
			text = "Result of tool call " + msg.ToolCallID + ":\n" + text
		case "assistant":
			if len(msg.ToolCalls) > 0 && string(msg.ToolCalls) != "null" {
				text = strings.TrimSpace(text + "\nTool calls: " + string(msg.ToolCalls))
			}
		}
		role := "user"
		if msg.Role == "assistant" {
			role = "assistant"
		}
		messages = append(messages, map[string]any{"role": role, "content": map[string]any{"type": "text", "text": text}})
	}
	if len(messages) == 0 {
		return nil, fmt.Errorf("chat body has no user or assistant message to sample from")
	}
	params := map[string]any{"messages": messages, "maxTokens": samplingMaxTokens(chat)}
	if len(system) > 0 {
		params["systemPrompt"] = strings.Join(system, "\n\n")
	}
	if chat.Temperature != nil {
		params["temperature"] = *chat.Temperature
	}
	if stops := stopSequences(chat.Stop); len(stops) > 0 {
		params["stopSequences"] = stops
	}
	if modelHint != "" {
		params["modelPreferences"] = map[string]any{"hints": []any{map[string]any{"name": modelHint}}}
	}
	return json.Marshal(params)
}

func samplingMaxTokens(chat chatBody) int {
	switch {
	case chat.MaxCompletionTokens > 0:
		return chat.MaxCompletionTokens
	case chat.MaxTokens > 0:
		return chat.MaxTokens
	}
	return defaultSamplingMaxTokens
}

// chatText is a message's content as text: a string, or the text parts of
// an array of parts.
func chatText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	return joinTextBlocks(content)
}

// textBlock is one content part: OpenAI's chat parts and MCP's content
// blocks share the shape.
type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// joinTextBlocks is the text of an array of content parts, one line each;
// other part types are left out.
func joinTextBlocks(content json.RawMessage) string {
	var parts []textBlock
	_ = json.Unmarshal(content, &parts)
	var texts []string
	for _, p := range parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// stopSequences reads "stop", a string or an array of strings.
func stopSequences(stop json.RawMessage) []string {
	var one string
	if json.Unmarshal(stop, &one) == nil && one != "" {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(stop, &many)
	return many
}

// completionFromSample turns a sampling/createMessage result into an
// OpenAI-style chat completion body.
func completionFromSample(answer json.RawMessage) ([]byte, error) {
	var sample struct {
		Content    json.RawMessage `json:"content"`
		Model      string          `json:"model"`
		StopReason string          `json:"stopReason"`
	}
	if err := json.Unmarshal(answer, &sample); err != nil {
		return nil, fmt.Errorf("read the client's sample: %w", err)
	}
	text := sampleText(sample.Content)
	finish := "stop"
	if sample.StopReason == "maxTokens" {
		finish = "length"
	}
	return json.Marshal(map[string]any{
		"object": "chat.completion",
		"model":  sample.Model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": text},
			"finish_reason": finish,
		}},
	})
}

// sampleText is the text of a sampling result's content: one block or an
// array of them; other block types are left out.
func sampleText(content json.RawMessage) string {
	var one textBlock
	if json.Unmarshal(content, &one) == nil && one.Type != "" {
		return one.Text
	}
	return joinTextBlocks(content)
}
