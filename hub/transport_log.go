package hub

import (
	"context"
	"log/slog"
)

// normalTransportErrors are messages mcp-go's HTTP transport logs at error
// level that report nothing wrong: a server that keeps no sessions answers
// the event-stream GET with 405, as the protocol allows, and the transport
// then stops asking.
var normalTransportErrors = map[string]bool{"server does not support listening": true}

// transportLog is the logger handed to mcp-go's HTTP transport: its
// normalTransportErrors are logged at debug level.
func transportLog(log *slog.Logger) *slog.Logger {
	return slog.New(demotingHandler{log.Handler()})
}

// demotingHandler logs normalTransportErrors at debug level and everything
// else as it comes.
type demotingHandler struct{ slog.Handler }

func (h demotingHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelError && normalTransportErrors[r.Message] {
		if !h.Handler.Enabled(ctx, slog.LevelDebug) {
			return nil
		}
		r.Level = slog.LevelDebug
	}
	return h.Handler.Handle(ctx, r)
}

func (h demotingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return demotingHandler{h.Handler.WithAttrs(attrs)}
}

func (h demotingHandler) WithGroup(name string) slog.Handler {
	return demotingHandler{h.Handler.WithGroup(name)}
}
