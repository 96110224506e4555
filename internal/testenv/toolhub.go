package testenv

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
)

// toolhubBuild is the toolhub binary, built once per test binary into a
// directory under the system temp dir.
var toolhubBuild struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// RemoveToolhubBinary deletes the binary ToolhubBinary built; call it from
// TestMain after m.Run.
func RemoveToolhubBinary() {
	if toolhubBuild.dir != "" {
		_ = os.RemoveAll(toolhubBuild.dir)
	}
}

// ToolhubBinary builds cmd/toolhub once per test binary (GOFLAGS from the
// environment apply) and returns its path; the tests of the binary share it
// until TestMain calls RemoveToolhubBinary.
func ToolhubBinary(t testing.TB) string {
	t.Helper()
	root := RepoRoot(t)
	toolhubBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "toolhub-bin-")
		if err != nil {
			toolhubBuild.err = err
			return
		}
		toolhubBuild.dir = dir
		toolhubBuild.path = filepath.Join(dir, Exe("toolhub"))
		cmd := exec.Command("go", "build", "-o", toolhubBuild.path, "github.com/toolhub/toolhub/cmd/toolhub")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			toolhubBuild.err = fmt.Errorf("go build cmd/toolhub: %w\n%s", err, out)
		}
	})
	if toolhubBuild.err != nil {
		t.Fatal(toolhubBuild.err)
	}
	return toolhubBuild.path
}

var servesAt = regexp.MustCompile(`toolhub serves MCP at (http://\S+)`)

// StartToolhubHTTP runs `toolhub ARGS...` (a `serve --http=127.0.0.1:0`
// command line) with env added to the test's environment and returns the
// endpoint URL it prints. The child gets SIGINT when the test ends and must
// exit cleanly; its stderr is logged when the test failed.
func StartToolhubHTTP(t testing.TB, env []string, args ...string) string {
	t.Helper()
	url, _ := StartToolhubHTTPProcess(t, env, args...)
	return url
}

// StartToolhubHTTPProcess is StartToolhubHTTP that also returns the
// process id of the toolhub it started.
func StartToolhubHTTPProcess(t testing.TB, env []string, args ...string) (url string, pid int) {
	t.Helper()
	cmd := exec.Command(ToolhubBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	group, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	var mu sync.Mutex
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := servesAt.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() {
		stopChild(t, cmd, group)
		if t.Failed() {
			mu.Lock()
			t.Logf("toolhub stderr:\n%s", log.String())
			mu.Unlock()
		}
	})
	select {
	case url := <-urls:
		return url, cmd.Process.Pid
	case <-time.After(time.Minute):
		t.Fatal("toolhub serve printed no endpoint within a minute")
		return "", 0
	}
}

// stopChild interrupts cmd and waits; a child that ignores SIGINT is killed
// with its process group and the test fails.
func stopChild(t testing.TB, cmd *exec.Cmd, group *proc.Group) {
	_ = cmd.Process.Signal(os.Interrupt)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("toolhub serve did not exit cleanly on SIGINT: %v", err)
		}
	case <-time.After(30 * time.Second):
		_ = group.Kill()
		<-exited
		t.Errorf("toolhub serve ignored SIGINT")
	}
	_ = group.Release()
}
