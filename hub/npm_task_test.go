package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// checkTaskOnlyTool runs server-everything's simulate-research-query,
// which it lists with execution.taskSupport "required" and refuses as a
// plain call, through the hub: the hub runs it as a task, the elicitation
// the task queues reaches the calling client, and a call that ends first
// has its task cancelled.
func checkTaskOnlyTool(t *testing.T, d *runningDownstream) {
	t.Helper()
	t.Run("a task-only tool answers a plain call, asking its client on the way", func(t *testing.T) {
		client := newFakeClient("dana", allCapabilities())
		raw, err := d.Call(WithClient(t.Context(), client), "simulate-research-query", json.RawMessage(`{"topic":"tides","ambiguous":true}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		text := resultText(t, raw)
		if !strings.Contains(text, "# Research Report: tides") || !strings.Contains(text, "User accepted without selection") {
			t.Fatalf("answer %s", raw)
		}
		asked := client.requests()
		i := slices.IndexFunc(asked, func(r string) bool { return strings.HasPrefix(r, "elicitation/create") })
		if i < 0 {
			t.Fatalf("the client was never asked; it was asked %q", asked)
		}
		if strings.Contains(asked[i], "related-task") {
			t.Fatalf("the question names the server's task, which the client never saw: %s", asked[i])
		}
	})
	t.Run("a call that ends cancels its task", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		errc := make(chan error, 1)
		go func() {
			_, err := d.Call(ctx, "simulate-research-query", json.RawMessage(`{"topic":"ebbs"}`), nil)
			errc <- err
		}()
		var id string
		waitUntil(t, "the task works", func() bool { id = taskIn(t, d, "working"); return id != "" },
			func() string { return "no working task" })
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("call error %v, want it cancelled", err)
		}
		status := ""
		waitUntil(t, "the task cancelled", func() bool {
			status = taskStatus(t, d, id)
			if status == "completed" {
				t.Fatalf("task %s ran to its end after its call did", id)
			}
			return status == "cancelled"
		}, func() string { return fmt.Sprintf("task %s is %s", id, status) })
	})
}

// taskIn is the id of a task of d's server in status, or "".
func taskIn(t *testing.T, d *runningDownstream, status string) string {
	t.Helper()
	var list struct {
		Tasks []struct {
			TaskID string `json:"taskId"`
			Status string `json:"status"`
		} `json:"tasks"`
	}
	requestInto(t, d, "tasks/list", nil, &list)
	for _, task := range list.Tasks {
		if task.Status == status {
			return task.TaskID
		}
	}
	return ""
}

// taskStatus is a task's status, as tasks/get has it.
func taskStatus(t *testing.T, d *runningDownstream, id string) string {
	t.Helper()
	var task struct {
		Status string `json:"status"`
	}
	requestInto(t, d, "tasks/get", map[string]string{"taskId": id}, &task)
	return task.Status
}

// requestInto sends d's server a request and decodes its result into out.
func requestInto(t *testing.T, d *runningDownstream, method string, params, out any) {
	t.Helper()
	conn, _ := d.currentConn()
	raw, err := conn.request(t.Context(), method, params)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s %s: %v", method, raw, err)
	}
}
