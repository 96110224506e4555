package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// pythonModes are the isolations the tests cover: bubblewrap only where it
// is installed, resource limits only everywhere.
func pythonModes(t *testing.T) []string {
	if runtime.GOOS == "windows" {
		t.Skip("the python tool is not offered on Windows: " + pythonUnsupported)
	}
	modes := []string{SandboxLimitsOnly}
	if _, err := findSystemCommand("bwrap"); err == nil {
		modes = append(modes, SandboxBubblewrap)
	} else {
		t.Logf("bwrap is not installed: the bubblewrap cases are not run")
	}
	return modes
}

// newPython builds the tool in mode with a fresh temp root it returns.
func newPython(t *testing.T, mode string, opts PythonOptions) (*Python, string) {
	t.Helper()
	opts.TempRoot = t.TempDir()
	opts.NoSandbox = mode == SandboxLimitsOnly
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	p, err := NewPython(opts)
	if err != nil {
		t.Fatalf("%v (the python tool needs python3 and prlimit in %v)", err, systemPath)
	}
	got, err := p.Sandbox(context.Background())
	if err != nil || got != mode {
		t.Fatalf("sandbox %q, %v; want %q", got, err, mode)
	}
	return p, opts.TempRoot
}

func runPython(t *testing.T, p *Python, code string, timeout time.Duration) *PythonResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := p.Run(ctx, code, timeout)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestPythonRunsCodeAndLeavesNoFiles(t *testing.T) {
	for _, mode := range pythonModes(t) {
		t.Run(mode, func(t *testing.T) {
			p, root := newPython(t, mode, PythonOptions{})
			code := "import os\nos.makedirs('ro/sub')\nopen('ro/sub/f.txt', 'w').write('x')\nos.chmod('ro', 0o500)\n" +
				"open('big.bin', 'wb').write(b'0' * 1000)\nprint(6 * 7, sorted(os.listdir('.')))\n"
			res := runPython(t, p, code, 0)
			if res.Failed() || res.Stdout != "42 ['big.bin', 'ro']\n" || res.Sandbox != mode {
				t.Fatalf("result %+v", res)
			}
			left, err := os.ReadDir(root)
			if err != nil || len(left) != 0 {
				t.Fatalf("the temp root still holds %v (%v)", left, err)
			}
		})
	}
}

func TestPythonTimeoutKillsTheLoopAndItsChildren(t *testing.T) {
	for _, mode := range pythonModes(t) {
		t.Run(mode, func(t *testing.T) {
			p, _ := newPython(t, mode, PythonOptions{})
			marker := fmt.Sprintf("toolhub-test-%d", rand.Int64())
			code := "import subprocess, sys\n" +
				"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)  # " + marker + "'])\n" +
				"print('started', flush=True)\nwhile True:\n    pass\n"
			res := runPython(t, p, code, time.Second)
			if !res.TimedOut || !res.Failed() || res.Stdout != "started\n" || !strings.Contains(res.Status(), "timed out after 1s") {
				t.Fatalf("result %+v", res)
			}
			waitNoProcessWith(t, marker)
		})
	}
}

func TestPythonCleanExitLeavesNoChildren(t *testing.T) {
	for _, mode := range pythonModes(t) {
		t.Run(mode, func(t *testing.T) {
			p, _ := newPython(t, mode, PythonOptions{})
			marker := fmt.Sprintf("toolhub-test-%d", rand.Int64())
			code := "import subprocess, sys\n" +
				"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)  # " + marker + "'])\nprint('bye')\n"
			res := runPython(t, p, code, 0)
			if res.Failed() || res.Stdout != "bye\n" {
				t.Fatalf("result %+v", res)
			}
			waitNoProcessWith(t, marker)
		})
	}
}

func TestPythonMemoryLimitStopsALargeAllocation(t *testing.T) {
	for _, mode := range pythonModes(t) {
		t.Run(mode, func(t *testing.T) {
			p, _ := newPython(t, mode, PythonOptions{MemoryBytes: 256 << 20})
			res := runPython(t, p, "x = bytearray(2 * 1024**3)\nprint('allocated')\n", 0)
			if !res.MemoryExceeded || res.ExitCode != 1 || strings.Contains(res.Stdout, "allocated") ||
				!strings.Contains(res.Status(), "memory limit of 256 MiB exceeded") {
				t.Fatalf("result %+v", res)
			}
		})
	}
}

func TestPythonSeesNoHubEnvironment(t *testing.T) {
	t.Setenv("TOOLHUB_TEST_CANARY", "canary-secret-value")
	t.Setenv("OPENAI_API_KEY", "sk-canary")
	allowed := []string{"PATH", "LANG", "HOME", "TMPDIR", "MPLBACKEND", "OPENBLAS_NUM_THREADS", "PWD", "LC_CTYPE"}
	for _, mode := range pythonModes(t) {
		t.Run(mode, func(t *testing.T) {
			p, _ := newPython(t, mode, PythonOptions{})
			res := runPython(t, p, "import os, json\nprint(json.dumps(dict(os.environ)))\n", 0)
			var env map[string]string
			if err := json.Unmarshal([]byte(res.Stdout), &env); err != nil {
				t.Fatalf("%v: %+v", err, res)
			}
			for name, value := range env {
				if !slices.Contains(allowed, name) || strings.Contains(value, "canary") {
					t.Errorf("the code sees %s=%q", name, value)
				}
			}
		})
	}
}

func TestPythonOutputIsCapped(t *testing.T) {
	for _, mode := range pythonModes(t) {
		t.Run(mode, func(t *testing.T) {
			p, _ := newPython(t, mode, PythonOptions{MaxOutputBytes: 1000})
			res := runPython(t, p, "import sys\nprint('x' * 10_000_000)\nsys.stderr.write('e' * 5000)\n", 0)
			if res.Failed() || !res.StdoutTruncated || !res.StderrTruncated {
				t.Fatalf("result status %s, truncated %v/%v", res.Status(), res.StdoutTruncated, res.StderrTruncated)
			}
			if !strings.HasPrefix(res.Stdout, strings.Repeat("x", 1000)) || len(res.Stdout) > 1100 ||
				!strings.Contains(res.Stdout, "[output truncated: 9999001 more bytes not shown]") {
				t.Fatalf("stdout of %d bytes ends %q", len(res.Stdout), res.Stdout[max(0, len(res.Stdout)-80):])
			}
		})
	}
}

func TestPythonBubblewrapBlocksNetworkAndFiles(t *testing.T) {
	if _, err := findSystemCommand("bwrap"); err != nil {
		t.Skip("bwrap is not installed: network and file isolation need bubblewrap; without it the python tool has neither")
	}
	p, _ := newPython(t, SandboxBubblewrap, PythonOptions{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("private"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	code := fmt.Sprintf("import socket\ntry:\n    socket.create_connection(('127.0.0.1', %d), timeout=2)\n    print('net: connected')\n"+
		"except OSError as e:\n    print('net: blocked', e)\ntry:\n    print('file:', open(%q).read())\nexcept OSError as e:\n    print('file: blocked', e)\n",
		port, secret)
	res := runPython(t, p, code, 0)
	if !strings.Contains(res.Stdout, "net: blocked") || !strings.Contains(res.Stdout, "file: blocked") {
		t.Fatalf("result %+v", res)
	}
	select {
	case <-accepted:
		t.Fatal("the sandboxed code reached the host's loopback listener")
	default:
	}
}

// waitNoProcessWith waits until no living process has marker in its command
// line; it fails after a few seconds.
func waitNoProcessWith(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		pids := processesWith(marker)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes %v running %q outlived the run", pids, marker)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func processesWith(marker string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(cmdline), marker) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

func TestPythonToolOverMCP(t *testing.T) {
	p, _ := newPython(t, pythonModes(t)[0], PythonOptions{})
	cases := []struct {
		name      string
		args      map[string]any
		wantError bool
		want      string
	}{
		{"prints", map[string]any{"code": "print(2**10)", "timeout_seconds": 5}, false, "exit status 0; sandbox: rlimits-only\n--- stdout ---\n1024\n"},
		{"raises", map[string]any{"code": "raise ValueError('boom')"}, true, "ValueError: boom"},
		{"silent", map[string]any{"code": "x = 1"}, false, "no output"},
		{"empty", map[string]any{"code": "  "}, true, "code is empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := callTool(t, p.Server(), "python", tc.args)
			if got := resultText(res); res.IsError != tc.wantError || !strings.Contains(got, tc.want) {
				t.Fatalf("isError %v, text %q; want %v and %q", res.IsError, got, tc.wantError, tc.want)
			}
		})
	}
}
