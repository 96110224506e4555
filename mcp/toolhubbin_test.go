package mcp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/testenv"
)

// toolhubBuild is the toolhub binary, built once per test binary; TestMain
// removes its directory.
var toolhubBuild struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// toolhubBinary builds cmd/toolhub (GOFLAGS from the environment apply).
func toolhubBinary(t *testing.T) string {
	t.Helper()
	toolhubBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "toolhub-bin-")
		if err != nil {
			toolhubBuild.err = err
			return
		}
		toolhubBuild.dir = dir
		toolhubBuild.path = filepath.Join(dir, "toolhub")
		cmd := exec.Command("go", "build", "-o", toolhubBuild.path, "github.com/toolhub/toolhub/cmd/toolhub")
		cmd.Dir = testenv.RepoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			toolhubBuild.err = fmt.Errorf("go build cmd/toolhub: %v\n%s", err, out)
		}
	})
	if toolhubBuild.err != nil {
		t.Fatal(toolhubBuild.err)
	}
	return toolhubBuild.path
}

// writeFile writes content to name in dir and returns the path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

var servesAt = regexp.MustCompile(`toolhub serves MCP at (http://\S+)`)

// startToolhubHTTP runs "toolhub serve --http=127.0.0.1:0" with extra
// flags as a child process and returns its endpoint URL. The child gets
// SIGINT when the test ends and must exit cleanly.
func startToolhubHTTP(t *testing.T, config string, extra ...string) string {
	t.Helper()
	args := append([]string{"--config", config, "serve", "--http=127.0.0.1:0"}, extra...)
	cmd := exec.Command(toolhubBinary(t), args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	var logMu sync.Mutex
	var log strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if m := servesAt.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("toolhub serve did not exit cleanly on SIGINT: %v", err)
			}
		case <-time.After(waitLimit):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Errorf("toolhub serve ignored SIGINT")
		}
		if t.Failed() {
			logMu.Lock()
			t.Logf("toolhub stderr:\n%s", log.String())
			logMu.Unlock()
		}
	})
	select {
	case url := <-urls:
		return url
	case <-time.After(waitLimit):
		t.Fatal("toolhub serve printed no endpoint")
		return ""
	}
}

// runInspector runs the inspector CLI from .tools/run and returns its stdout.
func runInspector(t *testing.T, args ...string) (string, error) {
	t.Helper()
	bin := testenv.NPMBin(t, "mcp-inspector-cli")
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--cli"}, args...)...)
	cmd.Dir = filepath.Join(testenv.RepoRoot(t), ".tools", "run")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%v: %s", err, stderr.String())
	}
	return string(out), nil
}
