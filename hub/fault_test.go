package hub

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	transport "github.com/mark3labs/mcp-go/client/transport"
)

func TestFaultCrashMidCall(t *testing.T) {
	spec, pidfile := faultySpec(t, "crashy", "ok")
	d := runDownstream(t, spec, testOptions())
	d.waitState(t, StateReady)

	_, err := d.Call(t.Context(), "crash", nil, nil)
	if err == nil {
		t.Fatal("a call whose server died returned no error")
	}
	if !errors.Is(err, transport.ErrTransportClosed) || !strings.Contains(err.Error(), "crashy") {
		t.Fatalf("error %q should wrap the transport failure and name the server", err)
	}

	// The supervisor restarts the child and calls work again.
	waitUntil(t, "a restart", func() bool {
		st := d.Status()
		return st.State == StateReady && st.Restarts == 1
	}, func() string { return "" })
	raw, err := d.Call(t.Context(), "echo", json.RawMessage(`{"text":"back"}`), nil)
	if err != nil || resultText(t, raw) != "back" {
		t.Fatalf("call after restart: %s, %v", raw, err)
	}
	if tail := d.Status().StderrTail; !strings.Contains(tail, "crashing mid-call") {
		t.Errorf("stderr tail should show the crash: %q", tail)
	}
	if !d.rec.sawState(StateRestarting, "exit status 2") {
		t.Errorf("the restart should say the child exited: %+v", d.rec.allStates())
	}

	d.stop(t)
	pids := readPids(t, pidfile)
	if len(pids) != 2 {
		t.Fatalf("want 2 children (first and restarted), got %v", pids)
	}
	assertProcessesGone(t, pids)
}

func TestFaultHangPastTimeout(t *testing.T) {
	spec, pidfile := faultySpec(t, "hangy", "ok")
	spec.Timeout = time.Second
	d := runDownstream(t, spec, testOptions())
	d.waitState(t, StateReady)

	_, err := d.Call(t.Context(), "hang", nil, nil)
	var timeout *CallTimeoutError
	if !errors.As(err, &timeout) || timeout.Tool != "hang" {
		t.Fatalf("want *CallTimeoutError for hang, got %T %v", err, err)
	}
	// The server was told to stop working on it, and keeps serving.
	waitUntil(t, "notifications/cancelled to reach the server", func() bool {
		return strings.Contains(d.Status().StderrTail, "cancelled request")
	}, func() string { return d.Status().StderrTail })
	if raw, err := d.Call(t.Context(), "echo", json.RawMessage(`{"text":"still here"}`), nil); err != nil || resultText(t, raw) != "still here" {
		t.Fatalf("call after a timeout: %s, %v", raw, err)
	}
	if st := d.Status(); st.State != StateReady || st.Restarts != 0 {
		t.Fatalf("a timeout must not restart the server: %+v", st)
	}

	d.stop(t)
	assertProcessesGone(t, readPids(t, pidfile))
}

func TestFaultStartupFailuresGiveUp(t *testing.T) {
	cases := []struct {
		name       string
		mode       string
		lastError  []string // all must appear in LastError
		stderrTail string
	}{
		{"garbage on stdout", "garbage", []string{"non-JSON", "faultyserver says hello"}, "mode garbage"},
		{"exit during initialize", "exit-init", []string{"initialize", "exit status 4"}, "exiting during initialize"},
		{"crash loop", "crash-loop", []string{"exit status 3"}, "crash-loop: exiting at start"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec, pidfile := faultySpec(t, "broken", tc.mode)
			d := runDownstream(t, spec, testOptions())
			st := d.waitState(t, StateFailed)
			t.Logf("LastError: %s", st.LastError)

			if !strings.Contains(st.LastError, "gave up after 5 failures") {
				t.Errorf("LastError %q should say the server was given up", st.LastError)
			}
			for _, want := range tc.lastError {
				if !strings.Contains(st.LastError, want) {
					t.Errorf("LastError %q should contain %q", st.LastError, want)
				}
			}
			if st.Restarts != 4 {
				t.Errorf("want 4 restarts before giving up, got %d", st.Restarts)
			}
			if !strings.Contains(st.StderrTail, tc.stderrTail) || len(st.StderrTail) > stderrTailBytes {
				t.Errorf("stderr tail (%d bytes) should end with the child's words %q: %q", len(st.StderrTail), tc.stderrTail, st.StderrTail)
			}
			_, err := d.Call(t.Context(), "echo", nil, nil)
			var unavailable *ServerUnavailableError
			if !errors.As(err, &unavailable) || unavailable.State != StateFailed || unavailable.Reason != st.LastError {
				t.Errorf("call on a failed server: want *ServerUnavailableError with the reason, got %v", err)
			}

			d.stop(t)
			pids := readPids(t, pidfile)
			if len(pids) != 5 {
				t.Errorf("want 5 attempts, got pids %v", pids)
			}
			assertProcessesGone(t, pids)
		})
	}
}

func TestFaultBigResult(t *testing.T) {
	for _, idLast := range []bool{false, true} {
		name := map[bool]string{false: "id first", true: "id last"}[idLast]
		t.Run(name, func(t *testing.T) {
			spec, pidfile := faultySpec(t, "bigly", "ok")
			d := runDownstream(t, spec, testOptions())
			d.waitState(t, StateReady)

			args, _ := json.Marshal(map[string]any{"bytes": 50 << 20, "idLast": idLast})
			_, err := d.Call(t.Context(), "big", args, nil)
			var tooLarge *ResultTooLargeError
			if !errors.As(err, &tooLarge) {
				t.Fatalf("want *ResultTooLargeError, got %T %v", err, err)
			}
			if tooLarge.Server != "bigly" || tooLarge.Limit != 16<<20 || tooLarge.Size < 50<<20 {
				t.Errorf("error details: %+v", tooLarge)
			}
			// The connection survives: same child, next call works.
			raw, err := d.Call(t.Context(), "echo", json.RawMessage(`{"text":"small"}`), nil)
			if err != nil || resultText(t, raw) != "small" {
				t.Fatalf("call after an oversized result: %s, %v", raw, err)
			}
			if st := d.Status(); st.State != StateReady || st.Restarts != 0 {
				t.Fatalf("an oversized result must not restart the server: %+v", st)
			}
			d.stop(t)
			assertProcessesGone(t, readPids(t, pidfile))
		})
	}
}

func TestFaultListChangedStorm(t *testing.T) {
	spec, pidfile := faultySpec(t, "stormy", "storm")
	opts := testOptions()
	opts.ListChangedQuiet = 200 * time.Millisecond
	d := runDownstream(t, spec, opts)
	d.waitState(t, StateReady)

	// The storm ends with a log message; notifications arrive in order.
	waitUntil(t, "the end of the storm", func() bool {
		for _, n := range d.rec.notifications() {
			if n.Method == "notifications/message" {
				return true
			}
		}
		return false
	}, func() string { return d.Status().StderrTail })
	waitUntil(t, "a re-list after the storm", func() bool { return d.rec.loads() >= 2 },
		func() string { return "" })

	if _, err := d.Call(t.Context(), "echo", json.RawMessage(`{"text":"calm"}`), nil); err != nil {
		t.Fatalf("call after the storm: %v", err)
	}
	// 1000 notifications: the first listing plus a few coalesced re-lists
	// (one per quiet period the storm happens to pause for).
	t.Logf("tool loads: %d", d.rec.loads())
	if loads := d.rec.loads(); loads > 10 {
		t.Fatalf("1000 list_changed caused %d tool loads; want them coalesced", loads)
	}
	for _, n := range d.rec.notifications() {
		if n.Method == "notifications/tools/list_changed" {
			t.Fatal("list_changed must be handled, not forwarded")
		}
	}
	d.stop(t)
	assertProcessesGone(t, readPids(t, pidfile))
}

func TestFaultStopKillsProcessGroup(t *testing.T) {
	cases := []struct {
		name  string
		mode  string
		count int
	}{
		{"grandchild left behind", "spawn", 2},
		{"child ignoring SIGTERM", "stubborn", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec, pidfile := faultySpec(t, "tenacious", tc.mode)
			d := runDownstream(t, spec, testOptions())
			d.waitState(t, StateReady)
			pids := readPids(t, pidfile)
			if len(pids) != tc.count {
				t.Fatalf("want %d pids, got %v", tc.count, pids)
			}
			d.stop(t)
			if st := d.Status(); st.State != StateStopped {
				t.Errorf("state after Stop: %s", st.State)
			}
			assertProcessesGone(t, pids)
		})
	}
}

func TestFaultHealthyServerKeepsServingBesideBrokenOne(t *testing.T) {
	healthySpec, healthyPids := faultySpec(t, "healthy", "ok")
	brokenSpec, brokenPids := faultySpec(t, "broken", "crash-loop")
	healthy := runDownstream(t, healthySpec, testOptions())
	broken := runDownstream(t, brokenSpec, testOptions())
	healthy.waitState(t, StateReady)

	var wg sync.WaitGroup
	errs := make(chan error, 1)
	ctx, cancel := context.WithCancel(t.Context())
	wg.Go(func() {
		for ctx.Err() == nil {
			if _, err := healthy.Call(ctx, "echo", json.RawMessage(`{"text":"ok"}`), nil); err != nil && ctx.Err() == nil {
				errs <- err
				return
			}
		}
	})
	broken.waitState(t, StateFailed)
	cancel()
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatalf("the healthy server failed while the other one crashed: %v", err)
	default:
	}
	if st := healthy.Status(); st.State != StateReady || st.Restarts != 0 {
		t.Fatalf("healthy server: %+v", st)
	}

	healthy.stop(t)
	broken.stop(t)
	assertProcessesGone(t, append(readPids(t, healthyPids), readPids(t, brokenPids)...))
}
