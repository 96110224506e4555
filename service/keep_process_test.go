package service

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/supervise"
	"github.com/toolhub/toolhub/internal/testenv"
)

// testChild starts this test binary as the child program role.
func testChild(t *testing.T, role, arg string, out io.Writer) func() (Run, error) {
	t.Helper()
	t.Setenv(childEnv, role)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return ProcessStarter(exe, []string{"-test.run=^$", arg}, out, 5*time.Second)
}

func TestKeepRestartsAFailingProgram(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	var out testenv.Buffer
	start := testChild(t, "fail-twice", runs, &out)
	log, logged := captureLog()
	opts := KeepOptions{Retry: supervise.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}, Log: log}
	if err := Keep(context.Background(), start, opts); err != nil {
		t.Fatalf("Keep = %v", err)
	}
	data, _ := os.ReadFile(runs)
	if n := strings.Count(string(data), "run\n"); n != 3 {
		t.Fatalf("the program ran %d times, want 3 (two failures, then a clean exit)", n)
	}
	if n := strings.Count(out.String(), "failing on purpose"); n != 2 {
		t.Fatalf("the program's output holds %d failures, want 2:\n%s", n, out.String())
	}
	if n := strings.Count(logged.String(), "exit status 3"); n != 2 {
		t.Fatalf("the log names %d exits with status 3, want 2:\n%s", n, logged.String())
	}
}

func TestKeepStopsTheProgramWhenItsContextEnds(t *testing.T) {
	pr, pw := io.Pipe()
	start := testChild(t, "wait", "", pw)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pid := make(chan int, 1)
	go func() {
		line, _ := bufio.NewReader(pr).ReadString('\n')
		n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "ready ")))
		pid <- n
		cancel()
		_, _ = io.Copy(io.Discard, pr)
	}()
	log, _ := captureLog()
	if err := Keep(ctx, start, KeepOptions{Log: log}); err != nil {
		t.Fatalf("Keep = %v", err)
	}
	_ = pw.Close()
	if p := <-pid; p <= 0 || !testenv.ProcessGone(p) {
		t.Fatalf("the program (pid %d) outlived Keep", p)
	}
}
