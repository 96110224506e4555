package desktopmain

import (
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestFinishIfStuck(t *testing.T) {
	cases := []struct {
		name       string
		quit       bool // the app was asked to quit
		stop       bool // the process was told to stop
		loopEnds   bool // its run loop ended
		fire       bool // the grace ran out
		wantFinish bool
	}{
		{"the loop ends after quitting", true, false, true, false, false},
		{"the loop hangs after quitting", true, false, false, true, true},
		{"the loop hangs after a signal whose quit was lost", false, true, false, true, true},
		{"the loop ends after a signal", false, true, true, false, false},
		{"the loop ends without a quit", false, false, true, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stop, quitting, uiDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
			if c.stop {
				close(stop)
			}
			fired := make(chan time.Time, 1)
			if c.quit {
				close(quitting)
			}
			if c.loopEnds {
				close(uiDone)
			}
			timeout := func() <-chan time.Time {
				if c.fire {
					fired <- time.Time{}
				}
				return fired
			}
			finished := 0
			finishIfStuck(stop, quitting, uiDone, timeout, func() { finished++ }, slog.New(slog.NewTextHandler(io.Discard, nil)))
			if got := finished == 1; got != c.wantFinish || finished > 1 {
				t.Fatalf("finish ran %d times; want it to run: %v", finished, c.wantFinish)
			}
		})
	}
}

func TestClosersRunOnceLastFirst(t *testing.T) {
	var c closers
	var mu sync.Mutex
	var order []int
	for i := range 3 {
		c.add(func() { mu.Lock(); order = append(order, i); mu.Unlock() })
	}
	var wg sync.WaitGroup
	for range 4 { // the run loop's return and the watchdog may both close
		wg.Add(1)
		go func() { defer wg.Done(); c.close() }()
	}
	wg.Wait()
	if want := []int{2, 1, 0}; !slices.Equal(order, want) {
		t.Fatalf("ran %v; want %v", order, want)
	}
}
