package hub

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestTasksExtensionRunsTaskOnlyTools: a 2026-07-28 server that offers the
// Tasks extension (modernserver -tasks) runs its task-only tool only when
// the call declares the extension. The hub does, follows the task and
// answers with the tool's result; the task's question is put to the
// calling client and its answer handed back with tasks/update; a task that
// fails is the tool's failure, not the hub's.
func TestTasksExtensionRunsTaskOnlyTools(t *testing.T) {
	eachTasksTransport(t, testTasksExtensionRuns)
}

func testTasksExtensionRuns(t *testing.T, spec ServerSpec) {
	h := startHub(t, spec)
	conn, _ := supervisor(t, h, "modern").currentConn()
	if conn == nil || conn.era.version != mcpgo.ProtocolVersion20260728 || !offersTasks(conn) {
		t.Fatalf("want a 2026-07-28 connection offering the Tasks extension; servers %+v", h.Servers())
	}
	cases := []struct {
		name, args string
		client     *fakeClient
		want       string
		isError    bool
		asked      int
	}{
		{"a report", `{"topic":"tides"}`, nil, "report on tides", false, 0},
		{"a report that asks the client", `{"topic":"tides","ask":true}`, newFakeClient("dana", allCapabilities()),
			"report on tides for dana", false, 1},
		{"a client that cannot answer", `{"topic":"tides","ask":true}`, newFakeClient("mute", ClientCapabilities{}),
			"does not support elicitation", true, 0},
		{"a task that fails", `{"topic":"crash"}`, nil, "the task failed: the report crashed (code -32603)", true, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if tc.client != nil {
				ctx = WithClient(ctx, tc.client)
			}
			res, err := h.Call(ctx, "modern__report", json.RawMessage(tc.args), CallOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := resultText(t, res.Raw); res.IsError != tc.isError || !strings.Contains(got, tc.want) {
				t.Fatalf("result %s, want isError %v and %q", res.Raw, tc.isError, tc.want)
			}
			if tc.client != nil && len(tc.client.requests()) != tc.asked {
				t.Fatalf("the client was asked %q, want %d requests", tc.client.requests(), tc.asked)
			}
		})
	}
	// The unanswered task was cancelled, the others ended on their own.
	want := "crash failed\ntides cancelled\ntides completed\ntides completed"
	if got := taskStates(t, h); got != want {
		t.Fatalf("the server's tasks:\n%s\nwant\n%s", got, want)
	}
}

// TestTasksExtensionCallEndsItsTask: a call that ends before its task
// (here, cancelled by the caller while the client is being asked) cancels
// the task on the server.
func TestTasksExtensionCallEndsItsTask(t *testing.T) {
	eachTasksTransport(t, testTasksExtensionCallEnds)
}

func testTasksExtensionCallEnds(t *testing.T, spec ServerSpec) {
	h := startHub(t, spec)
	arrived := make(chan string, 1)
	client := newFakeClient("slow", allCapabilities())
	client.gate, client.arrived = make(chan struct{}), arrived // it never answers
	ctx, cancel := context.WithCancel(WithClient(t.Context(), client))
	done := make(chan error, 1)
	go func() {
		_, err := h.Call(ctx, "modern__report", json.RawMessage(`{"topic":"forever","ask":true}`), CallOptions{})
		done <- err
	}()
	select {
	case <-arrived:
	case err := <-done:
		t.Fatalf("the call ended before its task asked the client: %v", err)
	}
	if got := taskStates(t, h); got != "forever input_required" {
		t.Fatalf("while the client is asked the server's task is %q", got)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled call returned %v", err)
	}
	if got := taskStates(t, h); got != "forever cancelled" {
		t.Fatalf("after the call ended the server's task is %q", got)
	}
}

// eachTasksTransport runs f against modernserver -tasks over stdio and
// over Streamable HTTP (where the server also checks Mcp-Name).
func eachTasksTransport(t *testing.T, f func(t *testing.T, spec ServerSpec)) {
	t.Run("stdio", func(t *testing.T) {
		spec := modernSpec(t, "")
		spec.Args = []string{"-tasks"}
		f(t, spec)
	})
	t.Run("http", func(t *testing.T) { f(t, modernHTTPSpec(t, "", "-tasks")) })
}

// taskStates is what the fixture's taskstates tool says of its tasks.
func taskStates(t *testing.T, h *Hub) string {
	t.Helper()
	res, err := h.Call(t.Context(), "modern__taskstates", nil, CallOptions{})
	if err != nil || res.IsError {
		t.Fatalf("taskstates: %v %s", err, res.Raw)
	}
	return resultText(t, res.Raw)
}

func TestTaskHandleAndPoll(t *testing.T) {
	handles := []struct {
		name, in string
		ok       bool
	}{
		{"a handle", `{"resultType":"task","taskId":"t1","status":"working"}`, true},
		{"a result", `{"resultType":"complete","content":[]}`, false},
		{"a handle without an id", `{"resultType":"task","status":"working"}`, false},
		{"a task of 2025-11-25", `{"task":{"taskId":"t1","status":"working"}}`, false},
		{"not JSON", `{`, false},
	}
	for _, tc := range handles {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := taskHandle(json.RawMessage(tc.in)); ok != tc.ok {
				t.Fatalf("taskHandle(%s) = %v, want %v", tc.in, ok, tc.ok)
			}
		})
	}
	polls := []struct {
		name string
		ms   float64
		want time.Duration
	}{
		{"none named", 0, defaultTaskPoll},
		{"as named", 700, 700 * time.Millisecond},
		{"too often", 1, minTaskPoll},
		{"too seldom", 60_000, maxTaskPoll},
		{"a fraction", 120.5, 120500 * time.Microsecond},
		{"far too seldom", 1e300, maxTaskPoll},
	}
	for _, tc := range polls {
		t.Run(tc.name, func(t *testing.T) {
			if got := taskPoll(tc.ms, defaultTaskPoll); got != tc.want {
				t.Fatalf("taskPoll(%v) = %v, want %v", tc.ms, got, tc.want)
			}
		})
	}
}

func FuzzTaskHandle(f *testing.F) {
	f.Add([]byte(`{"resultType":"task","taskId":"t1","status":"working","pollIntervalMs":20}`))
	f.Add([]byte(`{"resultType":"complete","status":"input_required","inputRequests":{"a":{}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		h, ok := taskHandle(raw)
		if ok && h.TaskID == "" {
			t.Fatalf("a handle without a task id from %q", raw)
		}
		_ = unanswered(h, map[string]bool{})
		_ = taskFailure(h)
	})
}
