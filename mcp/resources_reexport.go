package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// Resource contents and prompt messages are passed through raw, like tool
// results (see reexport.go): decoding them into mcp-go's types would drop
// what those types do not model.

// rawResourceContents is one resources/read content item kept as it came.
// Embedding TextResourceContents makes it an mcpgo.ResourceContents.
type rawResourceContents struct {
	mcpgo.TextResourceContents
	raw json.RawMessage
}

// MarshalJSON writes the item exactly as the downstream sent it.
func (c rawResourceContents) MarshalJSON() ([]byte, error) { return c.raw, nil }

// readHandler forwards resources/read to the hub, with the client behind
// it for the downstream's own requests.
func (s *Server) readHandler(src ResourceSource) mcpserver.ResourceHandlerFunc {
	return func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
		raw, err := src.ReadResource(s.withClient(ctx), req.Params.URI)
		if err != nil {
			return nil, noteRemoteError(ctx, err)
		}
		return resourceContents(raw)
	}
}

// resourceContents turns a downstream resources/read result into its
// content items, each kept raw.
func resourceContents(raw json.RawMessage) ([]mcpgo.ResourceContents, error) {
	var fields struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("decode downstream resource: %w", err)
	}
	out := make([]mcpgo.ResourceContents, 0, len(fields.Contents))
	for _, item := range fields.Contents {
		out = append(out, rawResourceContents{raw: item})
	}
	return out, nil
}

// promptHandler forwards prompts/get for the prompt exposed as name. A
// 2026-07-28 server's InputRequiredResult goes back as one: mcp-go hands
// it to a client of 2026-07-28, whose retry brings the answers and the
// server's requestState here to be passed on, and asks an older client
// with requests of its protocol, then calls the handler again with the
// answers.
func (s *Server) promptHandler(src ResourceSource, name string) mcpserver.PromptHandlerFunc {
	return func(ctx context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
		var answers *hub.InputAnswers
		if req.Params.InputResponses != nil || req.Params.RequestState != "" {
			answers = &hub.InputAnswers{State: req.Params.RequestState}
			if req.Params.InputResponses != nil {
				answers.Responses = req.Params.InputResponses
			}
		}
		raw, err := src.GetPrompt(s.withClient(ctx), name, req.Params.Arguments, answers)
		if err != nil {
			return nil, noteRemoteError(ctx, err)
		}
		return promptResult(raw)
	}
}

// promptResult turns a downstream prompts/get result into the client's,
// each message's content kept raw.
func promptResult(raw json.RawMessage) (*mcpgo.GetPromptResult, error) {
	var fields struct {
		Meta        map[string]json.RawMessage `json:"_meta"`
		Description string                     `json:"description"`
		Messages    []struct {
			Role    mcpgo.Role      `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		ResultType    mcpgo.ResultType    `json:"resultType"`
		InputRequests mcpgo.InputRequests `json:"inputRequests"`
		RequestState  string              `json:"requestState"`
	}
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("decode downstream prompt: %w", err)
	}
	if fields.ResultType == mcpgo.ResultTypeInputRequired {
		return &mcpgo.GetPromptResult{
			Result:               mcpgo.Result{ResultType: mcpgo.ResultTypeInputRequired},
			MultiRoundTripResult: mcpgo.MultiRoundTripResult{InputRequests: fields.InputRequests, RequestState: fields.RequestState},
			Messages:             []mcpgo.PromptMessage{},
		}, nil
	}
	res := &mcpgo.GetPromptResult{
		Description: fields.Description,
		Messages:    make([]mcpgo.PromptMessage, 0, len(fields.Messages)),
	}
	for i, m := range fields.Messages {
		if len(m.Content) == 0 {
			return nil, fmt.Errorf("decode downstream prompt: message %d has no content", i)
		}
		res.Messages = append(res.Messages, mcpgo.PromptMessage{Role: m.Role, Content: rawContent{raw: m.Content}})
	}
	res.Meta = resultMeta(fields.Meta)
	return res, nil
}
