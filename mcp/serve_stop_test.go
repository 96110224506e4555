package mcp

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"os"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestStopClosesConnectionsThatNeverSentARequest holds a connection that
// sends nothing, as an HTTP client's spare dial does, beside a client with a
// session and its event stream. Stopping the server must not wait the whole
// grace for that connection: it is closed, and no request is cut off.
func TestStopClosesConnectionsThatNeverSentARequest(t *testing.T) {
	logs := &recordedLogs{}
	s := testServer(t, newFakeCatalog(), Options{Logger: slog.New(logs)})
	h, err := s.ListenHTTP(HTTPOptions{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx) }()

	_ = connectHTTP(t, h.URL(), clientOptions{legacy: true, listen: true})
	spare, err := net.Dial("tcp", h.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer spare.Close()
	waitFor(t, "a connection without a request", func() bool { return h.fresh.Waiting() > 0 })

	cancel()
	if err := <-served; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if got := logs.messages(slog.LevelWarn); len(got) > 0 {
		t.Errorf("stopping logged %q; the spare connection held the shutdown until its grace ran out", got)
	}
	if err := spare.SetReadDeadline(time.Now().Add(waitLimit)); err != nil {
		t.Fatal(err)
	}
	// EOF once accepted; a reset if it was still in the listener's queue.
	if _, err := spare.Read(make([]byte, 1)); errors.Is(err, os.ErrDeadlineExceeded) || err == nil {
		t.Errorf("reading the spare connection after the stop = %v, want it closed", err)
	}
}

// recordedLogs is a slog.Handler keeping each record's level and message.
type recordedLogs struct {
	mu      sync.Mutex
	records []slog.Record
}

func (l *recordedLogs) Enabled(context.Context, slog.Level) bool { return true }

func (l *recordedLogs) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.records = append(l.records, r.Clone())
	return nil
}

func (l *recordedLogs) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *recordedLogs) WithGroup(string) slog.Handler      { return l }

// messages are the messages logged at level or above.
func (l *recordedLogs) messages(level slog.Level) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, r := range l.records {
		if r.Level >= level {
			out = append(out, r.Message)
		}
	}
	return slices.Clip(out)
}
