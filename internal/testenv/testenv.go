package testenv

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
)

// RepoRoot is the directory holding go.mod.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("testenv: no go.mod above the working directory")
		}
		dir = parent
	}
}

// NPMBin returns the path of an npm-installed binary under .tools. Under
// -short it skips the test; when .tools is missing it fails with the fix.
func NPMBin(t testing.TB, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts npm servers; skipped under -short")
	}
	p := filepath.Join(RepoRoot(t), ".tools", "node_modules", ".bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is missing: run scripts/install-tools.sh (make setup)", p)
	}
	return p
}

// FreePort returns a loopback port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// WaitListening waits until addr accepts TCP connections.
func WaitListening(t testing.TB, addr string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("nothing listens on %s after %s", addr, within)
}

// StartEverythingHTTP runs server-everything over Streamable HTTP on a free
// loopback port and returns its /mcp URL; it is killed when the test ends.
func StartEverythingHTTP(t testing.TB) string {
	t.Helper()
	bin := NPMBin(t, "mcp-server-everything")
	port := FreePort(t)
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	group, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopGroup(cmd, group) })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	WaitListening(t, addr, 30*time.Second)
	return "http://" + addr + "/mcp"
}

// stopGroup ends a server the test started: the graceful stop, then a kill
// after a few seconds.
func stopGroup(cmd *exec.Cmd, group *proc.Group) {
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	proc.Stop(group, exited, proc.StopOptions{Grace: 3 * time.Second})
	_ = group.Release()
}

// NodeScript returns the command line that runs a Node script with the
// Node of .tools: files (the script first, then the modules it imports)
// are copied from dir, relative to the repository root, into a folder
// under .tools/run, since Node resolves the npm packages a script imports
// from the script's own place. The folder is removed when the test ends.
func NodeScript(t testing.TB, dir string, files ...string) []string {
	t.Helper()
	node := NPMBin(t, "node")
	root := RepoRoot(t)
	run, err := os.MkdirTemp(filepath.Join(root, ".tools", "run"), "script-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(run) })
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(root, dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(run, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return []string{node, filepath.Join(run, files[0])}
}

// Exe is name as the file name of a program on this system: with ".exe"
// on Windows, where a program is found by its extension.
func Exe(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}
