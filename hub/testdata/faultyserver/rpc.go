package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"sync"
)

// message is an incoming JSON-RPC request or notification.
type message struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// an answer to one of the server's own requests
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

type server struct {
	mode  string
	storm int

	mu  sync.Mutex // serializes writes to out
	out *bufio.Writer

	asks asks
}

func newServer(mode string, storm int, out io.Writer) *server {
	return &server{mode: mode, storm: storm, out: bufio.NewWriterSize(out, 64<<10)}
}

// serve reads one JSON-RPC message per line until end of input. Tool calls
// run concurrently, as a real server's would.
func (s *server) serve(in io.Reader) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			s.handle(line)
		}
		if err != nil {
			return
		}
	}
}

func (s *server) handle(line []byte) {
	var msg message
	if err := json.Unmarshal(line, &msg); err != nil {
		logf("faultyserver: bad input: %v", err)
		return
	}
	if len(msg.ID) == 0 {
		s.notification(msg)
		return
	}
	if msg.Method == "" {
		s.answered(msg)
		return
	}
	switch msg.Method {
	case "initialize":
		s.initialize(msg)
	case "tools/list":
		s.listTools(msg)
	case "tools/call":
		go s.callTool(msg)
	case "ping":
		s.reply(msg.ID, map[string]any{})
	default:
		if s.mode == "lenient" { // answers what it does not know with {}
			s.reply(msg.ID, map[string]any{})
			return
		}
		s.fail(msg.ID, -32601, "method not found: "+msg.Method)
	}
}

func (s *server) notification(msg message) {
	switch msg.Method {
	case "notifications/initialized":
		if s.mode == "storm" {
			go s.emitStorm()
		}
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		logf("faultyserver: cancelled request %s", p.RequestID)
	}
}

func (s *server) initialize(msg message) {
	if s.mode == "exit-init" {
		logf("faultyserver: exiting during initialize")
		os.Exit(4)
	}
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(msg.Params, &p)
	if p.ProtocolVersion == "" {
		p.ProtocolVersion = "2025-11-25"
	}
	s.reply(msg.ID, map[string]any{
		"protocolVersion": p.ProtocolVersion,
		"capabilities":    map[string]any{"tools": map[string]any{"listChanged": true}},
		"serverInfo":      map[string]any{"name": "faultyserver", "version": "1.0.0"},
	})
}

// listTools serves the tool list in pages of pageSize, so clients must follow
// nextCursor.
func (s *server) listTools(msg message) {
	const pageSize = 3
	var p struct {
		Cursor string `json:"cursor"`
	}
	_ = json.Unmarshal(msg.Params, &p)
	start, _ := strconv.Atoi(p.Cursor)
	start = min(max(start, 0), len(toolDefs))
	end := min(start+pageSize, len(toolDefs))
	page := map[string]any{"tools": toolDefs[start:end]}
	if end < len(toolDefs) {
		page["nextCursor"] = strconv.Itoa(end)
	}
	logf("faultyserver: tools/list cursor %q", p.Cursor)
	s.reply(msg.ID, page)
}

func (s *server) emitStorm() {
	for range s.storm {
		s.notify("notifications/tools/list_changed", nil)
	}
	s.notify("notifications/message", map[string]any{"level": "info", "data": "storm done"})
	logf("faultyserver: sent %d tools/list_changed", s.storm)
}

func (s *server) reply(id json.RawMessage, result any) {
	s.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (s *server) fail(id json.RawMessage, code int, text string) {
	s.write(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": text}})
}

func (s *server) notify(method string, params any) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	s.write(msg)
}

func (s *server) write(msg any) {
	encoded, err := json.Marshal(msg)
	if err != nil {
		logf("faultyserver: encode: %v", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(encoded)
	s.out.WriteByte('\n')
	s.out.Flush()
}
