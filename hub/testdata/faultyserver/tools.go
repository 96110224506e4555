package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// toolDefs are sent exactly as written; echo's schema carries top-level
// keywords ($schema, description, anyOf) that mcp-go's typed Tool drops.
var toolDefs = []json.RawMessage{
	json.RawMessage(`{"name":"echo","description":"Echoes text.","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","description":"What to echo.","properties":{"text":{"type":"string"}},"anyOf":[{"required":["text"]}]}}`),
	json.RawMessage(`{"name":"sleep","description":"Sleeps, reporting progress when asked.","inputSchema":{"type":"object","properties":{"ms":{"type":"integer"}}}}`),
	json.RawMessage(`{"name":"crash","description":"Exits in the middle of the call.","inputSchema":{"type":"object"}}`),
	json.RawMessage(`{"name":"hang","description":"Never answers.","inputSchema":{"type":"object"}}`),
	json.RawMessage(`{"name":"big","description":"Returns a huge text.","inputSchema":{"type":"object","properties":{"bytes":{"type":"integer"},"idLast":{"type":"boolean"}}}}`),
	json.RawMessage(`{"name":"fail","description":"Reports a tool error.","inputSchema":{"type":"object"}}`),
	json.RawMessage(`{"name":"env","description":"Lists its environment.","inputSchema":{"type":"object"}}`),
	json.RawMessage(`{"name":"cwd","description":"Reports its working directory.","inputSchema":{"type":"object"}}`),
	json.RawMessage(`{"name":"ask","description":"Sends the client a request (sampling, elicitation, roots) and returns its answer.","inputSchema":{"type":"object","properties":{"method":{"type":"string"},"params":{"type":"object"}},"required":["method"]}}`),
	json.RawMessage(`{"name":"structured","description":"Returns structured content.","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"],"additionalProperties":false}}`),
}

type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Meta      struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	} `json:"_meta"`
}

func (s *server) callTool(msg message) {
	var p callParams
	if err := json.Unmarshal(msg.Params, &p); err != nil {
		s.fail(msg.ID, -32602, "bad params: "+err.Error())
		return
	}
	var args struct {
		Text   string `json:"text"`
		Ms     int    `json:"ms"`
		Bytes  int    `json:"bytes"`
		IDLast bool   `json:"idLast"`
	}
	_ = json.Unmarshal(p.Arguments, &args)
	switch p.Name {
	case "echo":
		s.reply(msg.ID, textResult(args.Text, false))
	case "sleep":
		s.sleep(msg.ID, args.Ms, p.Meta.ProgressToken)
	case "crash":
		logf("faultyserver: crashing mid-call")
		os.Exit(2)
	case "hang":
		logf("faultyserver: hanging")
	case "big":
		s.big(msg.ID, args.Bytes, args.IDLast)
	case "fail":
		s.reply(msg.ID, textResult("the tool failed on purpose", true))
	case "env":
		s.reply(msg.ID, textResult(strings.Join(os.Environ(), "\n"), false))
	case "cwd":
		dir, _ := os.Getwd()
		s.reply(msg.ID, textResult(dir, false))
	case "ask":
		s.askTool(msg.ID, p.Arguments)
	case "structured":
		s.reply(msg.ID, map[string]any{
			"content":           []any{map[string]any{"type": "text", "text": `{"sum":5}`}},
			"structuredContent": map[string]any{"sum": 5},
		})
	default:
		s.fail(msg.ID, -32602, "unknown tool "+p.Name)
	}
}

func textResult(text string, isError bool) map[string]any {
	result := map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
	if isError {
		result["isError"] = true
	}
	return result
}

// sleep waits ms milliseconds in two halves, reporting progress after each
// when the caller sent a progress token.
func (s *server) sleep(id json.RawMessage, ms int, token json.RawMessage) {
	for step := 1; step <= 2; step++ {
		time.Sleep(time.Duration(ms) * time.Millisecond / 2)
		if len(token) > 0 {
			s.notify("notifications/progress", map[string]any{"progressToken": token, "progress": step, "total": 2})
		}
	}
	s.reply(id, textResult(fmt.Sprintf("slept %d ms", ms), false))
}

// big writes one response line of about n bytes (50 MiB by default),
// streaming it rather than building it. With idLast the id comes after the
// result, as the TypeScript SDK orders it.
func (s *server) big(id json.RawMessage, n int, idLast bool) {
	if n <= 0 {
		n = 50 << 20
	}
	head := `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{"content":[{"type":"text","text":"`
	tail := `"}]}}`
	if idLast {
		head = `{"result":{"content":[{"type":"text","text":"`
		tail = `"}]},"jsonrpc":"2.0","id":` + string(id) + `}`
	}
	chunk := []byte(strings.Repeat("x", 64<<10))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.WriteString(head)
	for written := 0; written < n; written += len(chunk) {
		s.out.Write(chunk[:min(len(chunk), n-written)])
	}
	s.out.WriteString(tail + "\n")
	s.out.Flush()
	logf("faultyserver: wrote a %d-byte result", n)
}
