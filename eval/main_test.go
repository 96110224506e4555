package eval

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// childJournalEnv makes the test binary run a live eval journaling to the
// named file instead of running tests, so a test can kill it mid-eval.
const childJournalEnv = "TOOLHUB_EVAL_TEST_CHILD_JOURNAL"

func TestMain(m *testing.M) {
	if path := os.Getenv(childJournalEnv); path != "" {
		os.Exit(runChildEval(path))
	}
	os.Exit(m.Run())
}

// Shape of the eval the child runs: the child blocks in the episode after
// childFinished, leaving it half done when it is killed.
const (
	childTasks    = 5
	childFinished = 3
)

var childPolicies = []string{"good", "bad"}

func runChildEval(path string) int {
	tasks := liveTasks(childTasks)
	runner := newFakeRunner(tasks)
	runner.blockAfter = childFinished
	journal, done, err := OpenJournal(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_, err = RunLive(context.Background(), runner, LiveOptions{Tasks: tasks, Policies: childPolicies, Journal: journal, Done: done})
	fmt.Fprintln(os.Stderr, "child eval returned:", err)
	return 1
}
