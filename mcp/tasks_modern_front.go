package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
)

// taskMessage is the part of a request the Tasks extension's front door
// reads.
type taskMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta           *mcpgo.Meta                `json:"_meta"`
		Name           string                     `json:"name"`
		TaskID         string                     `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
	} `json:"params"`
}

var (
	tasksMethodPrefix = []byte(`"tasks/`)
	tasksExtensionKey = []byte(TasksExtension)
)

// modernTaskReply answers a 2026-07-28 request of the Tasks extension:
// an orchestrate or research call from a client that declares the
// extension (it starts a task and is answered with its handle), and
// tasks/get, tasks/update and tasks/cancel. It reports false for every
// other message, which goes on to mcp-go. lifetime, when not nil, ends
// the tasks started here when it ends (a stdio connection's); over HTTP
// a task outlives the request that started it. The reply comes with the
// HTTP status the protocol gives it.
func (s *Server) modernTaskReply(ctx, lifetime context.Context, body []byte) ([]byte, int, bool) {
	if s.opts.Conductor == nil || !(bytes.Contains(body, tasksMethodPrefix) || bytes.Contains(body, tasksExtensionKey)) {
		return nil, 0, false
	}
	var msg taskMessage
	if json.Unmarshal(body, &msg) != nil || !requestID(msg.ID) || !mcpgo.IsModernProtocol(msg.Params.Meta.ProtocolVersion()) {
		return nil, 0, false
	}
	switch msg.Method {
	case string(mcpgo.MethodToolsCall):
		handle, ok := s.startModernTask(ctx, lifetime, msg, body)
		if !ok {
			return nil, 0, false
		}
		return rpcResult(msg.ID, handle), http.StatusOK, true
	case string(mcpgo.MethodTasksGet), "tasks/update", string(mcpgo.MethodTasksCancel):
		if !declaresTasks(msg.Params.Meta.ClientCapabilities()) {
			return missingTasksExtension(msg), http.StatusBadRequest, true
		}
		reply, status := s.taskRequest(msg)
		return reply, status, true
	}
	return nil, 0, false
}

// declaresTasks reports whether a request's client capabilities declare
// the Tasks extension.
func declaresTasks(declared *mcpgo.ClientCapabilities) bool {
	return declared != nil && declared.Extensions[TasksExtension] != nil
}

// missingTasksExtension refuses a tasks/* request whose client did not
// declare the extension, as the protocol's missing required client
// capability error naming it.
func missingTasksExtension(msg taskMessage) []byte {
	return rpcErrorData(msg.ID, mcpgo.MISSING_REQUIRED_CLIENT_CAPABILITY,
		fmt.Sprintf("%s needs the %s extension declared in the request's client capabilities", msg.Method, TasksExtension),
		map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{TasksExtension: map[string]any{}}}})
}

// requestID reports whether id is a request's id: a string or a number.
func requestID(id json.RawMessage) bool {
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || (id[0] >= '0' && id[0] <= '9'))
}

// taskRequest answers tasks/get, tasks/update or tasks/cancel.
func (s *Server) taskRequest(msg taskMessage) ([]byte, int) {
	t := s.modernTasks.get(msg.Params.TaskID)
	if t == nil {
		return rpcError(msg.ID, mcpgo.INVALID_PARAMS, fmt.Sprintf("no task %q: it was never created here, "+
			"or its time to live has passed", msg.Params.TaskID)), http.StatusBadRequest
	}
	done := struct {
		ResultType mcpgo.ResultType `json:"resultType"`
		Meta       *mcpgo.Meta      `json:"_meta"`
	}{mcpgo.ResultTypeComplete, serverMeta(s.implementation())}
	switch msg.Method {
	case "tasks/update":
		if msg.Params.InputResponses == nil {
			return rpcError(msg.ID, mcpgo.INVALID_PARAMS, "tasks/update needs params.inputResponses, "+
				"an object of answers by input request key"), http.StatusBadRequest
		}
		t.answer(msg.Params.InputResponses)
		return rpcResult(msg.ID, done), http.StatusOK
	case string(mcpgo.MethodTasksCancel):
		t.stop() // a task that has ended already is acknowledged alike
		return rpcResult(msg.ID, done), http.StatusOK
	}
	return rpcResult(msg.ID, t.detailed(s.implementation())), http.StatusOK
}

// startModernTask starts the episode of a conductor call from a client
// that declared the Tasks extension and returns the task's handle, as the
// task was made (working): what the episode does next is read with
// tasks/get. It reports false, starting nothing, for any other call, for
// arguments the call refuses at once (it answers them as an ordinary call
// does) and when the store is full (the call then runs as an ordinary
// call).
func (s *Server) startModernTask(ctx, lifetime context.Context, msg taskMessage, body []byte) (taskWire, bool) {
	mode, textArg, ok := episodeMode(msg.Params.Name)
	declared := msg.Params.Meta.ClientCapabilities()
	if !ok || !declaresTasks(declared) {
		return taskWire{}, false
	}
	var req mcpgo.CallToolRequest
	if json.Unmarshal(body, &req) != nil {
		return taskWire{}, false
	}
	if _, err := episodeRequest(req, mode, textArg, s.opts.MaxTaskBytes); err != nil {
		return taskWire{}, false
	}
	now := time.Now()
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	t := &modernTask{id: newTaskID(), created: now, updated: now, ttl: s.modernTasks.ttl, runID: conductor.NewRunID(),
		cancel: cancel, status: taskWorking, pending: map[string]*pendingInput{}}
	if !s.modernTasks.add(t) {
		cancel()
		s.log.Warn("too many tasks kept; a call that asked for one runs as an ordinary call", "limit", maxModernTasks)
		return taskWire{}, false
	}
	unbind := func() bool { return false }
	if lifetime != nil {
		unbind = context.AfterFunc(lifetime, func() { t.stop() })
	}
	info := &mcpserver.RequestProtocolInfo{Modern: true, ClientInfo: msg.Params.Meta.ClientInfo(), ClientCapabilities: declared}
	runCtx = hub.WithClient(runCtx, &bridgeClient{asker: t, caps: modernCapabilities(declared),
		memory: rootsMemoryFrom(ctx), client: rootsClient(info)})
	handle := t.handle(s.implementation())
	s.taskRuns.Go(func() {
		defer unbind()
		s.runModernTask(runCtx, t, req, mode, textArg)
	})
	return handle, true
}

// runModernTask runs the task's episode and records its result; a panic
// fails the task rather than the server.
func (s *Server) runModernTask(ctx context.Context, t *modernTask, req mcpgo.CallToolRequest, mode conductor.Mode, textArg string) {
	defer t.cancel()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("a task's episode panicked", "task", t.id, "panic", r)
			t.mu.Lock()
			t.fail(mcpgo.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", r))
			t.mu.Unlock()
		}
	}()
	res := func() *mcpgo.CallToolResult {
		defer s.followTask(&t.trace, t.runID)()
		return s.runEpisode(ctx, req, mode, textArg, t.runID, nil)
	}()
	t.complete(res)
}

// serveModernTasks answers the Tasks extension's requests over HTTP
// (modernTaskReply) and passes every other request on.
func (s *Server) serveModernTasks(next http.Handler) http.Handler {
	if s.opts.Conductor == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			if reply, status, ok := s.modernTaskReply(r.Context(), nil, readBody(r)); ok {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				_, _ = w.Write(reply)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// implementation is how the server names itself in results.
func (s *Server) implementation() mcpgo.Implementation {
	return mcpgo.Implementation{Name: s.opts.Name, Version: s.opts.Version}
}
