package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// TestInProcessNotificationsArriveBeforeTheResult has an in-process server
// send a burst of notifications and answer at once: when Call returns, every
// notification of the call has reached OnNotification, in order.
func TestInProcessNotificationsArriveBeforeTheResult(t *testing.T) {
	const burst, calls = 25, 40
	srv := mcpserver.NewMCPServer("burst", "1")
	srv.AddTool(mcpgo.NewTool("burst"), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		call := req.GetString("call", "")
		for i := range burst {
			_ = srv.SendNotificationToClient(ctx, "notifications/message", map[string]any{
				"level": "info", "data": fmt.Sprintf("%s/%d", call, i),
			})
		}
		return mcpgo.NewToolResultText("done"), nil
	})
	var mu sync.Mutex
	var seen []string
	opts := testOptions()
	h, err := New([]ServerSpec{{Name: "burst", Transport: TransportInProcess, InProcess: srv}}, Options{
		Logger: opts.Logger, ConnectTimeout: waitLimit, CallTimeout: waitLimit,
		OnNotification: func(_ string, n mcpgo.JSONRPCNotification) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, fmt.Sprint(n.Params.AdditionalFields["data"]))
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	h.Start(t.Context())
	t.Cleanup(func() { _ = h.Close() })
	if err := h.WaitSettled(t.Context()); err != nil {
		t.Fatal(err)
	}
	for c := range calls {
		call := fmt.Sprint(c)
		args, _ := json.Marshal(map[string]string{"call": call})
		if _, err := h.Call(t.Context(), "burst__burst", args, CallOptions{}); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		got := seen
		seen = nil
		mu.Unlock()
		if len(got) != burst {
			t.Fatalf("call %d: %d of %d notifications arrived before the result", c, len(got), burst)
		}
		for i, data := range got {
			if want := fmt.Sprintf("%s/%d", call, i); data != want {
				t.Fatalf("call %d: notification %d is %q, want %q", c, i, data, want)
			}
		}
	}
}

// TestInProcessSessionIDsAreUnique: sessions opened within one tick of the
// clock each get their own id, whatever the clock's resolution.
func TestInProcessSessionIDsAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := inProcessSessionID()
		if seen[id] {
			t.Fatalf("id %s given twice", id)
		}
		seen[id] = true
	}
}
