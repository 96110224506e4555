package cli

import (
	"net"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/runlog"
)

func TestReplayRefuses(t *testing.T) {
	orch := scriptedmodel.New()
	defer orch.Close()
	cfg := modelsConfig(t, orch, orch)
	putRuns(t, noBodies(), expertOnly(), withBodies())
	closed := closedPort(t)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown run", []string{"nope", "--model", orch.URL() + "/v1"}, 2, `no run "nope"`},
		{"run without bodies", []string{"v1", "--model", orch.URL() + "/v1"}, 2, "recorded without its request bodies (run log version 1"},
		{"no orchestrator request", []string{"expert-only", "--model", orch.URL() + "/v1"}, 2, "sent no request to the orchestrator"},
		{"no model", []string{"v1"}, 2, "--model is required"},
		{"model not a URL", []string{"v1", "--model", "localhost:8000"}, 2, `want an http or https base URL`},
		{"bad locality", []string{"v1", "--model", orch.URL(), "--locality", "moon"}, 2, `--locality "moon"`},
		{"unreachable model", []string{"bodies", "--model", "http://" + closed + "/v1"}, 1, "is unreachable"},
		{"no run id", []string{"--model", orch.URL()}, 2, "accepts 1 arg"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runSub(t, newRunsCommand, cfg, append([]string{"replay"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d stderr %q, want %d and %q", code, stderr, tc.code, tc.want)
			}
		})
	}
	if n := len(orch.Requests()); n != 0 {
		t.Fatalf("a refused replay sent %d requests", n)
	}
}

// noBodies is a run as version 1 stored it: model calls made, no bodies.
func noBodies() *conductor.Run {
	run := &conductor.Run{ID: "v1", Task: "q", Policy: "orchestrator", Status: conductor.RunAnswered}
	run.Add(conductor.Step{Kind: conductor.StepModel, Alias: "orchestrator", Response: "r"})
	return run
}

func expertOnly() *conductor.Run {
	run := &conductor.Run{ID: "expert-only", Task: "q", Policy: "fixed:big", Status: conductor.RunAnswered}
	run.Add(conductor.Step{Kind: conductor.StepModel, Alias: "answer", Request: []byte(`{}`), Reply: []byte(`{}`)})
	return run
}

func withBodies() *conductor.Run {
	run := &conductor.Run{ID: "bodies", Task: "q", Policy: "orchestrator"}
	run.Add(conductor.Step{Kind: conductor.StepModel, Alias: "orchestrator", Request: []byte(`{"model":"m"}`)})
	return run
}

// putRuns stores runs in the test's run log.
func putRuns(t *testing.T, runs ...*conductor.Run) {
	t.Helper()
	if err := withRunLog(func(log *runlog.RunLog) error {
		for _, r := range runs {
			if err := log.Put(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// closedPort returns an address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}
