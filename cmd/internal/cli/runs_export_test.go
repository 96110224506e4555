package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/sjson"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestRunsExportGolden exports a recorded two-turn episode, per run and per
// turn, against testdata/runs_export.golden.jsonl. The run id and the
// measured latency change from run to run and are fixed before comparing.
func TestRunsExportGolden(t *testing.T) {
	cfg, _, _ := recordRun(t)
	var got bytes.Buffer
	for _, args := range [][]string{{"export", "--jsonl"}, {"export", "--turns"}} {
		code, stdout, stderr := runSub(t, newRunsCommand, cfg, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", args, code, stderr)
		}
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			got.Write(stable(t, []byte(line)))
			got.WriteByte('\n')
		}
	}
	path := filepath.Join("testdata", "runs_export.golden.jsonl")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("export differs from %s (run with -update after checking):\n%s", path, got.Bytes())
	}
}

// stable fixes the fields of an export line that differ between runs.
func stable(t *testing.T, line []byte) []byte {
	t.Helper()
	var err error
	for path, v := range map[string]any{"id": "RUN", "reward.latency": 0} {
		if line, err = sjson.SetBytes(line, path, v); err != nil {
			t.Fatal(err)
		}
	}
	return line
}
