package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
)

// wirePeer sends one JSON-RPC request as a 2026-07-28 client does and
// returns the HTTP status (200 over stdio) and the response.
type wirePeer interface {
	send(t *testing.T, method string, params map[string]any) (int, wireReply)
}

type wireReply struct {
	Result json.RawMessage            `json:"result"`
	Error  *mcpgo.JSONRPCErrorDetails `json:"error"`
}

// wireTask is a task as the extension sends it.
type wireTask struct {
	ResultType    string                     `json:"resultType"`
	TaskID        string                     `json:"taskId"`
	Status        string                     `json:"status"`
	StatusMessage string                     `json:"statusMessage"`
	CreatedAt     string                     `json:"createdAt"`
	TTLMs         *int64                     `json:"ttlMs"`
	PollMs        int64                      `json:"pollIntervalMs"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	Result        *mcpgo.CallToolResult      `json:"result"`
	Meta          map[string]json.RawMessage `json:"_meta"`
}

// taskPeers are the transports a 2026-07-28 client reaches toolhub on.
var taskPeers = []struct {
	name    string
	connect func(t *testing.T, s *Server) wirePeer
}{
	{"streamable http", func(t *testing.T, s *Server) wirePeer {
		return &httpPeer{url: serveHTTP(t, s, HTTPOptions{Token: testToken}).URL()}
	}},
	{"stdio", func(t *testing.T, s *Server) wirePeer { return newStdioPeer(t, s) }},
}

// modernParams are params with the _meta of a 2026-07-28 client; with
// tasks it declares the Tasks extension.
func modernParams(params map[string]any, tasks bool) map[string]any {
	caps := map[string]any{"elicitation": map[string]any{}, "sampling": map[string]any{}}
	if tasks {
		caps["extensions"] = map[string]any{TasksExtension: map[string]any{}}
	}
	params["_meta"] = map[string]any{
		mcpgo.MetaKeyProtocolVersion:    mcpgo.ProtocolVersion20260728,
		mcpgo.MetaKeyClientInfo:         map[string]any{"name": "wire", "version": "1"},
		mcpgo.MetaKeyClientCapabilities: caps,
	}
	return params
}

type httpPeer struct {
	url  string
	next atomic.Int64
}

func (p *httpPeer) send(t *testing.T, method string, params map[string]any) (int, wireReply) {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": p.next.Add(1), "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	headers := modernHeaders(method)
	if name, ok := params["name"].(string); ok {
		headers["Mcp-Name"] = name
	} else if uri, ok := params["uri"].(string); ok {
		headers["Mcp-Name"] = uri
	}
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit) // a call that never answers fails the test
	defer cancel()
	resp, raw := rawRequestWithin(ctx, t, http.MethodPost, p.url, headers, string(body))
	var reply wireReply
	if err := json.Unmarshal([]byte(sseData(raw)), &reply); err != nil {
		t.Fatalf("%s: decode %q: %v", method, raw, err)
	}
	return resp.StatusCode, reply
}

// stdioPeer writes requests to toolhub's stdio server and reads the
// responses by id, passing over notifications.
type stdioPeer struct {
	in    io.WriteCloser
	lines chan []byte
	next  int
}

func newStdioPeer(t *testing.T, s *Server) *stdioPeer {
	clientIn, clientOut := serveStdioPipes(t, s, nil)
	p := &stdioPeer{in: clientOut, lines: make(chan []byte, 64)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(clientIn)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			p.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	// Registered after the pipes' cleanup, so it runs first: the reader
	// must not block the server's last writes.
	t.Cleanup(func() {
		go func() {
			for range p.lines {
			}
		}()
	})
	return p
}

func (p *stdioPeer) send(t *testing.T, method string, params map[string]any) (int, wireReply) {
	t.Helper()
	p.next++
	id := fmt.Sprint(p.next)
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": p.next, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.in.Write(append(body, '\n')); err != nil {
		t.Fatalf("%s: write: %v", method, err)
	}
	limit := time.NewTimer(waitLimit) // a call that never answers fails the test
	defer limit.Stop()
	for {
		var line []byte
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("%s: the server closed stdout before answering", method)
			}
			line = l
		case <-limit.C:
			t.Fatalf("%s: no answer within %s", method, waitLimit)
		}
		var msg struct {
			ID json.RawMessage `json:"id"`
			wireReply
		}
		if json.Unmarshal(line, &msg) == nil && string(msg.ID) == id {
			return http.StatusOK, msg.wireReply
		}
	}
}

// startTask calls tool from a client declaring the Tasks extension and
// returns the task handle it is answered with.
func startTask(t *testing.T, p wirePeer, tool string, args map[string]any) wireTask {
	t.Helper()
	status, reply := p.send(t, "tools/call", modernParams(map[string]any{"name": tool, "arguments": args}, true))
	task := taskOf(t, status, reply)
	if task.ResultType != "task" || task.TaskID == "" || task.Status != taskWorking || task.TTLMs == nil || task.PollMs <= 0 {
		t.Fatalf("tools/call answered %+v, want a working task handle", task)
	}
	return task
}

// taskRequest sends tasks/get, tasks/update or tasks/cancel for id.
func taskRequest(t *testing.T, p wirePeer, method, id string, extra map[string]any) (int, wireReply) {
	t.Helper()
	params := map[string]any{"taskId": id}
	for k, v := range extra {
		params[k] = v
	}
	return p.send(t, method, modernParams(params, true))
}

func getWireTask(t *testing.T, p wirePeer, id string) wireTask {
	t.Helper()
	status, reply := taskRequest(t, p, "tasks/get", id, nil)
	task := taskOf(t, status, reply)
	if task.ResultType != string(mcpgo.ResultTypeComplete) || task.TaskID != id {
		t.Fatalf("tasks/get answered %+v, want task %s with resultType complete", task, id)
	}
	return task
}

// awaitWireStatus reads the task until its status is want.
func awaitWireStatus(ctx context.Context, t *testing.T, p wirePeer, id, want string) wireTask {
	t.Helper()
	for ctx.Err() == nil {
		if task := getWireTask(t, p, id); task.Status == want {
			return task
		}
	}
	t.Fatalf("task %s never reached %s: %v", id, want, ctx.Err())
	return wireTask{}
}

func taskOf(t *testing.T, status int, reply wireReply) wireTask {
	t.Helper()
	if status != http.StatusOK || reply.Error != nil {
		t.Fatalf("status %d, error %+v", status, reply.Error)
	}
	var task wireTask
	if err := json.Unmarshal(reply.Result, &task); err != nil {
		t.Fatalf("decode task %s: %v", reply.Result, err)
	}
	return task
}

// askingConductor asks the calling client for a name by elicitation,
// then answers with it.
type askingConductor struct{}

func (askingConductor) Run(ctx context.Context, req conductor.Request) (*conductor.Run, error) {
	run := &conductor.Run{ID: req.RunID, Task: req.Task, Mode: req.Mode, Policy: "orchestrator"}
	client := hub.ClientFrom(ctx)
	if client == nil || !client.Capabilities().Elicitation {
		run.Status, run.Error = conductor.RunFailed, "no client to ask"
		return run, nil
	}
	raw, err := client.Elicit(ctx, json.RawMessage(`{"message":"whose task is it?","requestedSchema":`+
		`{"type":"object","properties":{"name":{"type":"string"}}}}`))
	if err != nil {
		run.Status, run.Error = conductor.RunFailed, err.Error()
		return run, nil
	}
	var answer struct {
		Content struct {
			Name string `json:"name"`
		} `json:"content"`
	}
	_ = json.Unmarshal(raw, &answer)
	run.Status, run.Answer = conductor.RunAnswered, "done for "+answer.Content.Name
	return run, nil
}
