package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// Completer forwards completion/complete to the server that owns the prompt
// or resource. *hub.Hub satisfies it; a Catalog without it offers no
// completions.
type Completer interface {
	Complete(ctx context.Context, ref hub.CompletionRef, argument, completionContext json.RawMessage) (json.RawMessage, error)
}

// completionOptions declare completions and route them to src.
func (s *Server) completionOptions(src Completer) []mcpserver.ServerOption {
	p := completionProvider{s: s, src: src}
	return []mcpserver.ServerOption{
		mcpserver.WithCompletions(),
		mcpserver.WithPromptCompletionProvider(p),
		mcpserver.WithResourceCompletionProvider(p),
	}
}

// completionProvider is mcp-go's prompt and resource completion provider,
// forwarding to the owning downstream.
type completionProvider struct {
	s   *Server
	src Completer
}

func (p completionProvider) CompletePromptArgument(ctx context.Context, prompt string, arg mcpgo.CompleteArgument, cc mcpgo.CompleteContext) (*mcpgo.Completion, error) {
	return p.complete(ctx, hub.CompletionRef{Prompt: prompt}, arg, cc)
}

func (p completionProvider) CompleteResourceArgument(ctx context.Context, uri string, arg mcpgo.CompleteArgument, cc mcpgo.CompleteContext) (*mcpgo.Completion, error) {
	return p.complete(ctx, hub.CompletionRef{URI: uri}, arg, cc)
}

func (p completionProvider) complete(ctx context.Context, ref hub.CompletionRef, arg mcpgo.CompleteArgument, cc mcpgo.CompleteContext) (*mcpgo.Completion, error) {
	argument, err := json.Marshal(arg)
	if err != nil {
		return nil, fmt.Errorf("encode completion argument: %w", err)
	}
	var completionContext json.RawMessage
	if len(cc.Arguments) > 0 {
		if completionContext, err = json.Marshal(cc); err != nil {
			return nil, fmt.Errorf("encode completion context: %w", err)
		}
	}
	raw, err := p.src.Complete(p.s.withClient(ctx), ref, argument, completionContext)
	if err != nil {
		return nil, noteRemoteError(ctx, err)
	}
	var result struct {
		Completion mcpgo.Completion `json:"completion"`
	}
	if err := json.Unmarshal(raw, &result); err != nil {
		return nil, fmt.Errorf("decode downstream completion: %w", err)
	}
	return &result.Completion, nil
}
