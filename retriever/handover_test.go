package retriever

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"
)

func TestOpenWaitingTakesTheIndexOnceItsHolderHandsItOver(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Logger: slog.New(slog.DiscardHandler)}
	holder, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if holder.HandoverRequested() {
		t.Fatal("a handover is requested before anyone waits")
	}
	type opened struct {
		ix  *Index
		err error
	}
	got := make(chan opened, 1)
	go func() {
		ix, err := OpenWaiting(context.Background(), dir, opts, time.Minute)
		got <- opened{ix, err}
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !holder.HandoverRequested() {
		if time.Now().After(deadline) {
			t.Fatal("the waiter never asked for the index")
		}
		time.Sleep(10 * time.Millisecond) // polls a condition another process sets
	}
	if err := holder.Close(); err != nil {
		t.Fatal(err)
	}
	o := <-got
	if o.err != nil {
		t.Fatalf("OpenWaiting after the handover: %v", o.err)
	}
	defer func() { _ = o.ix.Close() }()
	if o.ix.HandoverRequested() {
		t.Fatal("the waiter's request outlived its wait")
	}
}

func TestOpenWaitingGivesUp(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Logger: slog.New(slog.DiscardHandler)}
	holder, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Close() }()
	cases := []struct {
		name string
		ctx  func() context.Context
		wait time.Duration
	}{
		{"no wait", context.Background, 0},
		{"the wait passes", context.Background, 3 * handoverPoll},
		{"the caller gives up", func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, time.Hour},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := OpenWaiting(tc.ctx(), dir, opts, tc.wait); !errors.Is(err, ErrInUse) {
				t.Fatalf("OpenWaiting = %v, want ErrInUse", err)
			}
			if holder.HandoverRequested() {
				t.Fatal("a request is left behind after the waiter gave up")
			}
		})
	}
}

// TestHeldByAnotherOnEverySystem: Badger's refusal to open a locked
// database is known in its Unix and its Windows words alike.
func TestHeldByAnotherOnEverySystem(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"unix", errors.New(`Cannot acquire directory lock on "/x/badger".  Another process is using this Badger database.: resource temporarily unavailable`), true},
		{"windows", errors.New(`Cannot create lock file "C:\\x\\badger\\LOCK".  Another process is using this Badger database err: The process cannot access the file because it is being used by another process.`), true},
		{"another error", errors.New("manifest has unsupported version: 7"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := heldByAnother(tt.err); got != tt.want {
				t.Errorf("heldByAnother(%q) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
