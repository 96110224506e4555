package mcp

import (
	"context"
	"testing"
)

// TestEveryProgressArrivesBeforeTheResult calls tools that report progress
// or log and answer at once, many times over Streamable HTTP: every
// notification must reach the client before the result, none may be lost to
// the result overtaking it (in the hub's in-process transport, or in
// mcp-go's writing of the response stream).
func TestEveryProgressArrivesBeforeTheResult(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	st.fix.drainStarts(t)
	const calls, steps = 40, 5
	for _, legacy := range []bool{true, false} {
		n := &notes{}
		c := st.client(t, clientOptions{legacy: legacy, onNote: n.add})
		for i := range calls {
			token := float64(i + 1)
			before := len(n.of("notifications/progress"))
			res, err := callWithProgress(context.Background(), c, "fix__slow",
				map[string]any{"steps": steps, "delay_ms": 0, "label": "x"}, token)
			if err != nil || res.IsError {
				t.Fatalf("call %d: %v %v", i, err, res)
			}
			if got := len(n.of("notifications/progress")) - before; got != steps {
				t.Errorf("legacy=%v call %d: %d of %d progress notifications arrived before the result", legacy, i, got, steps)
			}
			if !legacy {
				continue // a 2026-07-28 client gets logs only at a level it names per request
			}
			logsBefore := len(n.of("notifications/message"))
			callTool(t, c, "fix__logs", map[string]any{"label": "x"})
			if got := len(n.of("notifications/message")) - logsBefore; got != 3 {
				t.Errorf("legacy=%v call %d: %d of 3 log messages arrived before the result", legacy, i, got)
			}
		}
	}
}
