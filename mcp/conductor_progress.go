package mcp

import (
	"context"
	"log/slog"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/conductor"
)

// progressSender sends one notifications/progress per step under the
// progress token of the call, when the caller asked for progress.
type progressSender struct {
	server *mcpserver.MCPServer
	token  mcpgo.ProgressToken
	log    *slog.Logger

	mu    sync.Mutex
	count int
}

func newProgressSender(s *mcpserver.MCPServer, req mcpgo.CallToolRequest, log *slog.Logger) *progressSender {
	p := &progressSender{server: s, log: log}
	if req.Params.Meta != nil {
		p.token = req.Params.Meta.ProgressToken
	}
	return p
}

// step reports s; observations are not steps a client needs to see.
func (p *progressSender) step(ctx context.Context, s conductor.Step) {
	if p.token == nil || s.Kind == conductor.StepObservation {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count++
	err := p.server.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
		"progressToken": p.token,
		"progress":      p.count,
		"message":       StepMessage(p.count, s),
	})
	if err != nil {
		p.log.Debug("step progress not sent", "err", err)
	}
}
