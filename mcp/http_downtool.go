package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// answerDownTools answers, over HTTP, a tools/call of a tool whose server is
// down with the server's state and reason, as an isError result like every
// other failed call. Such a tool is not on mcp-go's surface (a server that
// never came up has no known tools), so mcp-go would answer that the tool
// does not exist. Everything else passes through unchanged.
func (s *Server) answerDownTools(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := readBody(r) // read once, by limitBody
		if r.Method != http.MethodPost || body == nil {
			next.ServeHTTP(w, r)
			return
		}
		id, p, ok := s.downToolCall(body)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		res := s.forward(r.Context(), p.Name, p.Arguments, nil)
		out, err := json.Marshal(mcpgo.NewJSONRPCResultResponse(mcpgo.NewRequestId(id), res))
		if err != nil {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	})
}

// downCallProbe is what downToolCall reads of every request first: the
// method and the tool's name, not the arguments.
type downCallProbe struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
}

// downToolCall reports whether body is one tools/call of a tool that is not
// on the surface and whose server is down. Every tools/call passes here, so
// the common case (a tool on the surface) costs one decode that keeps
// nothing of the arguments; the call's parameters are decoded only for a
// tool that is answered here.
func (s *Server) downToolCall(body []byte) (any, *shortCallParams, bool) {
	if !bytes.Contains(body, []byte(mcpgo.MethodToolsCall)) || !anyServerDown(s.cat) {
		return nil, nil, false
	}
	var probe downCallProbe
	if json.Unmarshal(body, &probe) != nil || probe.Method != string(mcpgo.MethodToolsCall) ||
		len(probe.ID) == 0 || bytes.Equal(probe.ID, []byte("null")) {
		return nil, nil, false
	}
	name := probe.Params.Name
	if name == "" || ownTool(name) || s.mcp.GetTool(name) != nil || !ofDownServer(s.cat, name) {
		return nil, nil, false
	}
	var env envelope
	if json.Unmarshal(body, &env) != nil {
		return nil, nil, false
	}
	var p shortCallParams
	if json.Unmarshal(env.Params, &p) != nil || p.Name == "" {
		return nil, nil, false
	}
	var id any
	if json.Unmarshal(env.ID, &id) != nil {
		return nil, nil, false
	}
	return id, &p, true
}
