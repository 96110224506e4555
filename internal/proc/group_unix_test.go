//go:build linux

package proc

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startTree starts sh, which starts a sleeping grandchild, prints its pid
// and waits; ignoreTerm makes the whole tree ignore SIGTERM.
func startTree(t *testing.T, ignoreTerm bool) (*Group, <-chan struct{}, int) {
	t.Helper()
	script := "sleep 300 & echo $!; wait"
	if ignoreTerm {
		script = "trap '' TERM; " + script
	}
	cmd := exec.Command("/bin/sh", "-c", script)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	g, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	grandchild, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("grandchild pid %q: %v", line, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = g.Kill() })
	return g, exited, grandchild
}

// alive reports whether pid runs (a zombie waiting for init counts as not).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func TestGroupStopEndsTheWholeTree(t *testing.T) {
	cases := []struct {
		name       string
		ignoreTerm bool
		want       Outcome
	}{
		{"tree that obeys SIGTERM", false, Interrupted},
		{"tree that ignores SIGTERM", true, Killed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, exited, grandchild := startTree(t, tc.ignoreTerm)
			if g.Gone() || !alive(grandchild) {
				t.Fatal("the tree is not running after Start")
			}
			grace := time.Minute
			if tc.ignoreTerm {
				grace = 200 * time.Millisecond
			}
			if got := Stop(g, exited, StopOptions{Grace: grace}); got != tc.want {
				t.Fatalf("Stop = %v, want %v", got, tc.want)
			}
			// SIGKILL is delivered asynchronously: give the kernel a moment.
			for deadline := time.Now().Add(10 * time.Second); alive(grandchild); time.Sleep(5 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("grandchild %d outlived Stop", grandchild)
				}
			}
			if err := g.Release(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestStartFailureLeavesNothing(t *testing.T) {
	if _, err := Start(exec.Command("/nonexistent/toolhub-test-binary")); err == nil {
		t.Fatal("Start of a missing program succeeded")
	}
}
