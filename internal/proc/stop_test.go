package proc

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// fakeTree is a process tree that ends at a chosen step: the root exits
// (exited is closed) and the last process goes at the step named.
type fakeTree struct {
	mu           sync.Mutex
	calls        []string
	exited       chan struct{}
	exitOn       string // "", "start", "interrupt" or "kill": when the root exits
	goneOn       string // same, for the last process of the tree
	gone         bool
	interruptErr error
}

func newFakeTree(exitOn, goneOn string, interruptErr error) *fakeTree {
	f := &fakeTree{exited: make(chan struct{}), exitOn: exitOn, goneOn: goneOn, interruptErr: interruptErr}
	f.step("start")
	return f
}

func (f *fakeTree) step(name string) {
	if f.exitOn == name {
		close(f.exited)
	}
	if f.goneOn == name {
		f.gone = true
	}
}

func (f *fakeTree) Interrupt() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "interrupt")
	if f.interruptErr != nil {
		return f.interruptErr
	}
	f.step("interrupt")
	return nil
}

func (f *fakeTree) Kill() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, "kill")
	f.step("kill")
	return nil
}

func (f *fakeTree) Gone() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gone
}

func TestStopSequence(t *testing.T) {
	const long, short = time.Minute, 5 * time.Millisecond
	noConsole := errors.New("no console")
	cases := []struct {
		name         string
		exitOn       string
		goneOn       string
		interruptErr error
		opts         StopOptions
		want         Outcome
		wantCalls    []string
	}{
		{"exits by itself", "start", "start", nil, StopOptions{ExitWait: long, Grace: long}, Exited, nil},
		{"no exit wait interrupts at once", "start", "start", nil, StopOptions{Grace: long}, Interrupted, []string{"interrupt"}},
		{"grandchild outlives the root until interrupted", "start", "interrupt", nil, StopOptions{ExitWait: long, Grace: long}, Interrupted, []string{"interrupt"}},
		{"root ignores stdin and ends on interrupt", "interrupt", "interrupt", nil, StopOptions{ExitWait: short, Grace: long}, Interrupted, []string{"interrupt"}},
		{"tree ignores interrupt and is killed", "kill", "kill", nil, StopOptions{ExitWait: short, Grace: short}, Killed, []string{"interrupt", "kill"}},
		{"root exits on interrupt, grandchild only on kill", "interrupt", "kill", nil, StopOptions{ExitWait: short, Grace: short}, Killed, []string{"interrupt", "kill"}},
		{"failed interrupt goes on to kill", "kill", "kill", noConsole, StopOptions{Grace: short}, Killed, []string{"interrupt", "kill"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeTree(tc.exitOn, tc.goneOn, tc.interruptErr)
			got := Stop(f, f.exited, tc.opts)
			if got != tc.want || !slices.Equal(f.calls, tc.wantCalls) {
				t.Fatalf("Stop = %v with calls %v; want %v with %v", got, f.calls, tc.want, tc.wantCalls)
			}
		})
	}
}

func TestOutcomeString(t *testing.T) {
	for o, want := range map[Outcome]string{Exited: "exited", Interrupted: "interrupted", Killed: "killed", Outcome(9): "unknown"} {
		if got := o.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", o, got, want)
		}
	}
}
