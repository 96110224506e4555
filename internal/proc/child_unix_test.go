//go:build linux || darwin

package proc

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// slowWriter stands for a stderr consumer that is behind when the child
// exits: each write arrives a little after it was read.
type slowWriter struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (w *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(20 * time.Millisecond)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *slowWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestExitedCarriesTheChildsLastWords(t *testing.T) {
	cases := []struct {
		name   string
		script string
		settle time.Duration
		want   string // "": not checked
	}{
		// The settle is long, so only the end of the pipe can close Exited.
		{"crash message", "echo 'fatal: out of memory' >&2; exit 3", time.Hour, "fatal: out of memory"},
		// A grandchild holding stderr open must not hold back the exit.
		{"grandchild keeps the pipe", "sleep 300 & echo 'bye' >&2; exit 0", stderrSettle, ""},
	}
	defer func(settle time.Duration) { stderrSettle = settle }(stderrSettle)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			stderrSettle = tc.settle
			var stderr slowWriter
			p, err := StartChild(ChildSpec{Command: "/bin/sh", Args: []string{"-c", tc.script}}, &stderr)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Terminate(time.Second)
			select {
			case <-p.Exited():
			case <-time.After(time.Minute):
				t.Fatal("the child's exit was not reported")
			}
			if got := stderr.String(); tc.want != "" && !strings.Contains(got, tc.want) {
				t.Fatalf("stderr seen at exit %q, want %q in it", got, tc.want)
			}
		})
	}
}
