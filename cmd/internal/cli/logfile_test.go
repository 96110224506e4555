package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogFileTakesTheLogs: with --log-file the logs go to the file (made
// with its folder), not to stderr; a second run appends.
func TestLogFileTakesTheLogs(t *testing.T) {
	home := configEnv(t)
	mustWrite(t, filepath.Join(home, "c.json"), `{"mcpServers": {"broken": {"command": "toolhub-no-such-command"}}}`)
	logPath := filepath.Join(home, "logs", "toolhub.log")
	for run := 1; run <= 2; run++ {
		code, _, stderr := runConfigCmd(t, "--config", filepath.Join(home, "c.json"), "--log-file", logPath, "--log-level", "info", "servers")
		if code != 0 {
			t.Fatalf("run %d: exit %d\n%s", run, code, stderr)
		}
		if strings.Contains(stderr, "level=") {
			t.Errorf("run %d: logs on stderr:\n%s", run, stderr)
		}
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "downstream failed: command not found"); n != 2 {
		t.Fatalf("the log file has %d of the two runs' failures:\n%s", n, data)
	}
}

func TestLogFileIsRotatedOncePastItsCap(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "toolhub.log")
	for _, tc := range []struct {
		name      string
		size      int64
		rotated   bool
		keptBytes int64
	}{
		{"small is kept", 100, false, 100},
		{"past the cap is moved to .1", logFileRotateBytes + 1, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(path + ".1")
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, tc.size); err != nil {
				t.Fatal(err)
			}
			f, err := openLogFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			if st.Size() != tc.keptBytes {
				t.Fatalf("the open log file holds %d bytes, want %d", st.Size(), tc.keptBytes)
			}
			old, err := os.Stat(path + ".1")
			if tc.rotated != (err == nil) || (tc.rotated && old.Size() != tc.size) {
				t.Fatalf("rotated file: %v (want it: %v)", err, tc.rotated)
			}
		})
	}
}
