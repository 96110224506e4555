package eval

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestEvalLiveResumesAfterAKill kills a real eval process mid-episode and
// resumes from its journal: nothing finished runs twice, nothing is lost.
func TestEvalLiveResumesAfterAKill(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	child := exec.Command(exe, "-test.run=^$")
	child.Env = append(os.Environ(), childJournalEnv+"="+path)
	var stderr bytes.Buffer
	child.Stderr = &stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	waitForLines(t, path, childFinished, &stderr)
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()

	journal, done, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	defer journal.Close()
	if len(done) != childFinished {
		t.Fatalf("the killed eval journaled %d episodes, want %d", len(done), childFinished)
	}
	tasks := liveTasks(childTasks)
	runner := newFakeRunner(tasks)
	entries, err := RunLive(context.Background(), runner, LiveOptions{Tasks: tasks, Policies: childPolicies, Journal: journal, Done: done})
	if err != nil {
		t.Fatal(err)
	}
	total := childTasks * len(childPolicies)
	if runner.count() != total-childFinished {
		t.Fatalf("the resumed eval ran %d episodes, want %d", runner.count(), total-childFinished)
	}
	all, err := readJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range all {
		seen[e.Key()]++
	}
	if len(entries) != total || len(all) != total || len(seen) != total {
		t.Fatalf("entries %d, journal %d, distinct %d; want %d each", len(entries), len(all), len(seen), total)
	}
}

// waitForLines waits until the journal holds n complete lines.
func waitForLines(t *testing.T, path string, n int, stderr *bytes.Buffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		data, _ := os.ReadFile(path)
		if bytes.Count(data, []byte("\n")) >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the child eval journaled fewer than %d lines; stderr:\n%s", n, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
}
