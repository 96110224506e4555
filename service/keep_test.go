package service

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/supervise"
	"github.com/toolhub/toolhub/internal/testenv"
)

// fakeRun is a run that ends with err as soon as it starts, or, when
// block is set, only once stopped.
type fakeRun struct {
	done    chan struct{}
	err     error
	stopped bool
}

func newFakeRun(err error, block bool) *fakeRun {
	r := &fakeRun{done: make(chan struct{}), err: err}
	if !block {
		close(r.done)
	}
	return r
}

func (r *fakeRun) Done() <-chan struct{} { return r.done }
func (r *fakeRun) Err() error            { return r.err }
func (r *fakeRun) Stop() {
	if !r.stopped {
		r.stopped = true
		select {
		case <-r.done:
		default:
			close(r.done)
		}
	}
}

// captureLog is a logger writing into the returned buffer.
func captureLog() (*slog.Logger, *testenv.Buffer) {
	var b testenv.Buffer
	return slog.New(slog.NewTextHandler(&b, nil)), &b
}

var errFailed = errors.New("exit status 1")

func TestKeep(t *testing.T) {
	type step struct {
		startErr error
		runErr   error
		lasts    time.Duration // how long the fake clock says the run lasted
	}
	cases := []struct {
		name      string
		steps     []step
		wantInRow []string // failures_in_a_row of each restart logged
	}{
		{"a clean exit ends it", []step{{}}, nil},
		{"failures are restarted until a clean exit",
			[]step{{runErr: errFailed}, {runErr: errFailed}, {}}, []string{"1", "2"}},
		{"a program that cannot start is tried again",
			[]step{{startErr: errors.New("file locked")}, {}}, []string{"1"}},
		{"a run that lasted a minute starts the count over",
			[]step{{runErr: errFailed}, {runErr: errFailed, lasts: 2 * time.Minute}, {runErr: errFailed}, {}}, []string{"1", "1", "2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := time.Unix(0, 0)
			starts := 0
			start := func() (Run, error) {
				s := tc.steps[starts]
				starts++
				clock = clock.Add(s.lasts)
				if s.startErr != nil {
					return nil, s.startErr
				}
				return newFakeRun(s.runErr, false), nil
			}
			log, logged := captureLog()
			opts := KeepOptions{Retry: supervise.RetryPolicy{BaseDelay: time.Nanosecond, MaxDelay: time.Nanosecond},
				Log: log, now: func() time.Time { return clock }}
			if err := Keep(context.Background(), start, opts); err != nil {
				t.Fatalf("Keep = %v", err)
			}
			if starts != len(tc.steps) {
				t.Fatalf("started %d times, want %d", starts, len(tc.steps))
			}
			var inRow []string
			for _, line := range strings.Split(strings.TrimSpace(logged.String()), "\n") {
				if _, after, ok := strings.Cut(line, "failures_in_a_row="); ok {
					inRow = append(inRow, strings.Fields(after)[0])
				}
			}
			if strings.Join(inRow, ",") != strings.Join(tc.wantInRow, ",") {
				t.Fatalf("restarts logged failures in a row %v, want %v:\n%s", inRow, tc.wantInRow, logged.String())
			}
		})
	}
}

func TestKeepStopsTheRunningProgram(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var runs []*fakeRun
	start := func() (Run, error) {
		r := newFakeRun(nil, true)
		runs = append(runs, r)
		cancel() // the service is stopped while this run is going
		return r, nil
	}
	log, _ := captureLog()
	if err := Keep(ctx, start, KeepOptions{Log: log}); err != nil {
		t.Fatalf("Keep = %v", err)
	}
	if len(runs) != 1 || !runs[0].stopped {
		t.Fatalf("runs %d, first stopped %v; want one, stopped", len(runs), len(runs) > 0 && runs[0].stopped)
	}
}

func TestKeepDoesNotWaitOutARestartOnceStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	starts := 0
	start := func() (Run, error) {
		starts++
		cancel()
		return newFakeRun(errFailed, false), nil
	}
	log, _ := captureLog()
	opts := KeepOptions{Retry: supervise.RetryPolicy{BaseDelay: time.Hour}, Log: log}
	if err := Keep(ctx, start, opts); err != nil || starts != 1 {
		t.Fatalf("Keep = %v after %d starts; want nil after 1", err, starts)
	}
}
