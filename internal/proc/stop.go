package proc

import (
	"time"
)

// Tree is what Stop needs of a process tree; *Group is one.
type Tree interface {
	Interrupt() error
	Kill() error
	Gone() bool
}

// Outcome says which step of Stop ended the tree.
type Outcome int

const (
	// Exited: the tree ended by itself within ExitWait; no signal was sent.
	Exited Outcome = iota
	// Interrupted: the tree ended within Grace of the graceful stop.
	Interrupted
	// Killed: the tree outlived Grace and was killed.
	Killed
)

func (o Outcome) String() string {
	switch o {
	case Exited:
		return "exited"
	case Interrupted:
		return "interrupted"
	case Killed:
		return "killed"
	}
	return "unknown"
}

// StopOptions are the waits of Stop.
type StopOptions struct {
	// ExitWait is how long the root gets to exit by itself before the
	// graceful stop (a server exits when its stdin closes); 0 interrupts
	// at once.
	ExitWait time.Duration
	// Grace is how long the tree gets after the graceful stop before it is
	// killed.
	Grace time.Duration
	// Poll is how often Gone is asked; 0 means 10ms.
	Poll time.Duration
}

// Stop ends t: it waits up to ExitWait for exited (closed once the root is
// reaped) and returns if no process of the tree is left; otherwise it
// interrupts the tree, waits up to Grace for it to be gone, and kills it
// if any process is left. It returns once exited is closed.
// A failed Interrupt (no shared console on Windows) goes straight on to
// waiting and killing.
func Stop(t Tree, exited <-chan struct{}, opts StopOptions) Outcome {
	if opts.Poll <= 0 {
		opts.Poll = 10 * time.Millisecond
	}
	outcome := stop(t, exited, opts)
	<-exited
	return outcome
}

func stop(t Tree, exited <-chan struct{}, opts StopOptions) Outcome {
	if opts.ExitWait > 0 && waitExited(exited, opts.ExitWait) && t.Gone() {
		return Exited
	}
	_ = t.Interrupt()
	if waitGone(t, exited, opts.Grace, opts.Poll) {
		return Interrupted
	}
	_ = t.Kill()
	return Killed
}

// waitExited waits up to timeout for exited to be closed.
func waitExited(exited <-chan struct{}, timeout time.Duration) bool {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-exited:
		return true
	case <-timer.C:
		return false
	}
}

// waitGone polls until exited is closed and t is gone, or timeout passes.
func waitGone(t Tree, exited <-chan struct{}, timeout, poll time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case <-exited:
			if t.Gone() {
				return true
			}
		default:
		}
		select {
		case <-deadline.C:
			return false
		case <-tick.C:
		}
	}
}
