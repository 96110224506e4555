package main

import (
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"
)

// asks are the server's own requests to the client, waiting for answers.
type asks struct {
	next    atomic.Int64
	mu      sync.Mutex
	pending map[string]chan message
}

// ask sends method to the client and waits for its answer.
func (s *server) ask(method string, params json.RawMessage) message {
	id := "faulty-" + strconv.FormatInt(s.asks.next.Add(1), 10)
	answer := make(chan message, 1)
	s.asks.mu.Lock()
	if s.asks.pending == nil {
		s.asks.pending = map[string]chan message{}
	}
	s.asks.pending[id] = answer
	s.asks.mu.Unlock()
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if len(params) > 0 {
		req["params"] = params
	}
	s.write(req)
	return <-answer
}

// answered delivers the client's answer to a request of ours.
func (s *server) answered(msg message) {
	var id string
	if err := json.Unmarshal(msg.ID, &id); err != nil {
		logf("faultyserver: answer with an id not ours: %s", msg.ID)
		return
	}
	s.asks.mu.Lock()
	answer, ok := s.asks.pending[id]
	delete(s.asks.pending, id)
	s.asks.mu.Unlock()
	if ok {
		answer <- msg
	}
}

// askTool asks the client what the arguments say and returns its answer as
// the tool's text: the result's JSON, or the error's, with isError set.
func (s *server) askTool(id json.RawMessage, args json.RawMessage) {
	var a struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	_ = json.Unmarshal(args, &a)
	answer := s.ask(a.Method, a.Params)
	if len(answer.Error) > 0 {
		s.reply(id, textResult(string(answer.Error), true))
		return
	}
	s.reply(id, textResult(string(answer.Result), false))
}
