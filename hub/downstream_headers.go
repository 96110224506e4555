package hub

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Over Streamable HTTP, protocol 2026-07-28 has every request name its
// method in an Mcp-Method header and, for tools/call, prompts/get and
// resources/read, its target in Mcp-Name (the Tasks extension adds
// tasks/get, tasks/update and tasks/cancel, naming the task); a tool whose
// input schema marks arguments with x-mcp-header also has those arguments
// mirrored in Mcp-Param-* headers. Servers refuse requests whose headers are missing or
// disagree with the body, so a modern HTTP connection adds them to every
// request it sends. Other transports have no headers.

// headerTools holds a modern HTTP connection's tools that bind arguments to
// headers, by name, as the server last listed them.
type headerTools struct {
	mu    sync.Mutex
	tools map[string]*mcpgo.Tool
}

// remember replaces what is held with the tools of a whole tools/list
// that bind arguments to headers. A tool whose bindings are invalid is left
// out (its calls go without them, and the server says what is wrong).
func (h *headerTools) remember(tools []RawTool) {
	bound := map[string]*mcpgo.Tool{}
	for _, raw := range tools {
		if !bytes.Contains(raw.InputSchema, []byte("x-mcp-header")) {
			continue
		}
		var tool mcpgo.Tool
		if err := json.Unmarshal(raw.Raw, &tool); err != nil || mcpgo.ValidateParamHeaderAnnotations(&tool) != nil {
			continue
		}
		bound[tool.Name] = &tool
	}
	h.mu.Lock()
	h.tools = bound
	h.mu.Unlock()
}

func (h *headerTools) lookup(name string) *mcpgo.Tool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tools[name]
}

// requestHeaders are the routing headers of one request on a modern HTTP
// connection, or nil on any other connection.
func (c *connection) requestHeaders(method string, params any) http.Header {
	if !c.era.modern || !c.routingHeaders {
		return nil
	}
	var headers map[string]string
	if call, ok := params.(*toolCallRequest); ok {
		headers = c.callHeaders(call)
	} else {
		encoded, err := json.Marshal(params)
		if err != nil {
			return nil
		}
		headers = mcpgo.StandardHeaders(c.era.version, mcpgo.MCPMethod(method), encoded)
		if id, ok := namedTask(method, encoded); ok && headers != nil {
			headers[mcpgo.HeaderName] = id
		}
	}
	out := make(http.Header, len(headers))
	for k, v := range headers {
		out.Set(k, v)
	}
	return out
}

// namedTask is the task a tasks/get, tasks/update or tasks/cancel names,
// which the Tasks extension has such a request carry in Mcp-Name too, so
// that what routes requests can send each to the instance holding the
// task.
func namedTask(method string, params json.RawMessage) (string, bool) {
	switch method {
	case "tasks/get", "tasks/update", "tasks/cancel":
	default:
		return "", false
	}
	var ref struct {
		TaskID string `json:"taskId"`
	}
	if json.Unmarshal(params, &ref) != nil || ref.TaskID == "" {
		return "", false
	}
	return mcpgo.EncodeHeaderValue(ref.TaskID)
}

// callHeaders are a tools/call's headers, made without encoding the whole
// call again.
func (c *connection) callHeaders(call *toolCallRequest) map[string]string {
	headers := map[string]string{mcpgo.HeaderMethod: string(mcpgo.MethodToolsCall)}
	if name, ok := mcpgo.EncodeHeaderValue(call.Name); ok {
		headers[mcpgo.HeaderName] = name
	}
	tool := c.headerTools.lookup(call.Name)
	if tool == nil || len(call.Arguments) == 0 {
		return headers
	}
	params := make([]byte, 0, len(call.Arguments)+15)
	params = append(append(append(params, `{"arguments":`...), call.Arguments...), '}')
	for k, v := range mcpgo.GenerateParamHeaders(tool, params) {
		headers[k] = v
	}
	return headers
}
