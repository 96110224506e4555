package queuemark

import (
	"context"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func note(i int) mcpgo.JSONRPCNotification {
	return mcpgo.JSONRPCNotification{Notification: mcpgo.Notification{Method: "notifications/message",
		Params: mcpgo.NotificationParams{AdditionalFields: map[string]any{"i": i}}}}
}

func TestAwaitReturnsOnceEverythingBeforeTheMarkIsHandled(t *testing.T) {
	var m Marks
	queue := make(chan mcpgo.JSONRPCNotification, 100)
	var mu sync.Mutex
	handled := 0
	go func() {
		for n := range queue {
			if m.Reached(n) {
				continue
			}
			time.Sleep(time.Millisecond) // a slow reader
			mu.Lock()
			handled++
			mu.Unlock()
		}
	}()
	defer close(queue)
	for round := 1; round <= 5; round++ {
		for i := range 10 {
			queue <- note(i)
		}
		m.Await(context.Background(), queue, time.Minute)
		mu.Lock()
		got := handled
		mu.Unlock()
		if got != 10*round {
			t.Fatalf("round %d: %d handled when Await returned, want %d", round, got, 10*round)
		}
	}
}

func TestAwaitGivesUp(t *testing.T) {
	tests := []struct {
		name  string
		queue chan mcpgo.JSONRPCNotification
		ctx   func() context.Context
	}{
		{"a full queue nobody reads", make(chan mcpgo.JSONRPCNotification), context.Background},
		{"a reader that never reaches the mark", make(chan mcpgo.JSONRPCNotification, 1), context.Background},
		{"a cancelled context", make(chan mcpgo.JSONRPCNotification), func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var m Marks
			done := make(chan struct{})
			go func() { m.Await(tc.ctx(), tc.queue, 50*time.Millisecond); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Await did not give up")
			}
		})
	}
}

func TestReachedTellsMarksFromNotifications(t *testing.T) {
	var m Marks
	if m.Reached(note(1)) {
		t.Error("an ordinary notification taken for a mark")
	}
	stray := mcpgo.JSONRPCNotification{Notification: mcpgo.Notification{Method: Method}}
	if !m.Reached(stray) {
		t.Error("a mark nobody waits for must still be skipped")
	}
}
