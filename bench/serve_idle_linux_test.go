//go:build linux

package bench

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/testenv"
)

var startupRelease = regexp.MustCompile(`returned start-up memory.* executable_kib=(\d+)`)

// TestIdleServeGivesBackItsBinarysPages runs the real toolhub serve and
// waits for it to say it gave back its binary's pages: what the process
// then holds of its binary is less than what it gave back.
func TestIdleServeGivesBackItsBinarysPages(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.json")
	if err := os.WriteFile(config, []byte(`{"mcpServers": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testenv.ToolhubBinary(t), "--config", config, "--log-level", "debug", "serve")
	stdin, err := cmd.StdinPipe() // held open: a stdio toolhub ends with its input
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}()
	released := make(chan int64, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := startupRelease.FindStringSubmatch(sc.Text()); m != nil {
				kb, _ := strconv.ParseInt(m[1], 10, 64)
				released <- kb
				break
			}
		}
		for sc.Scan() { // drain, so that the child never blocks on its stderr
		}
	}()
	var kb int64
	select {
	case kb = <-released:
	case <-time.After(2 * time.Minute):
		t.Fatal("toolhub serve never said it returned its start-up memory")
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	r, err := parseSmapsRollup(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("gave back %d KiB of the binary; holds %d KiB of files, %d KiB anonymous", kb, r.File>>10, r.Anonymous>>10)
	if kb == 0 || r.File >= kb<<10 {
		t.Fatalf("gave back %d KiB of the binary, and holds %d KiB of it after: want less held than given back", kb, r.File>>10)
	}
}
