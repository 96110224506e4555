package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// A stdio or Streamable HTTP server is asked with server/discover whether it
// speaks protocol 2026-07-28 (mcp-go's Initialize probes, and falls back to
// the initialize handshake when the server does not answer it). On such a
// connection every request carries the protocol version, the hub's identity
// and its capabilities in _meta, list changes arrive on a
// subscriptions/listen stream, and a tool that needs the client's input
// answers with an InputRequiredResult, which the hub fulfils through the
// calling client and retries. An HTTP server that falls back to the
// handshake gets the standing GET stream of the older protocol instead. SSE
// servers keep the handshake: that transport is of the older protocol only.

// maxInputRounds bounds how often one call is retried with input.
const maxInputRounds = 10

// era is the protocol a connection negotiated.
type era struct {
	version string
	modern  bool
	meta    map[string]any // the _meta every request of a modern connection carries
	// variants are meta as a request made for one client carries it
	// (forClient), by whether it runs as a task of the Tasks extension and
	// by the capabilities of that client the hub can answer for.
	variants *[2][capsMasks]map[string]any
}

// negotiatedEra reads what the handshake settled on.
func (d *downstream) negotiatedEra(conn *connection) era {
	v := conn.client.ProtocolVersion()
	if !mcpgo.IsModernProtocol(v) {
		return era{version: v}
	}
	var variants [2][capsMasks]map[string]any
	for task := range variants {
		for mask := range variants[task] {
			caps := capsFor(d.downstreamClientCapabilities(), mask)
			if task == 1 {
				caps.Extensions = map[string]any{TasksExtension: map[string]any{}}
			}
			variants[task][mask] = map[string]any{
				mcpgo.MetaKeyProtocolVersion:    v,
				mcpgo.MetaKeyClientInfo:         d.opts.ClientInfo,
				mcpgo.MetaKeyClientCapabilities: caps,
			}
		}
	}
	return era{version: v, modern: true, meta: variants[0][allCaps], variants: &variants}
}

// forClient is the era of a request made for client c (nil: for the hub
// itself), run as a task of the Tasks extension when asTask. A 2026-07-28
// server learns a client's capabilities from each request, so its _meta
// declares only what c can answer: the server asks this client for
// nothing it cannot give, and refuses a tool that needs more with the
// error the client would get from the server directly. Requests of the
// hub's own declare every capability it has.
func (e era) forClient(c ClientRequester, asTask bool) era {
	if !e.modern {
		return e
	}
	mask := allCaps
	if c != nil {
		mask = maskOf(c.Capabilities())
	}
	task := 0
	if asTask {
		task = 1
	}
	e.meta = e.variants[task][mask]
	return e
}

// A capability mask has a bit for each client capability the hub forwards.
const (
	maskSampling = 1 << iota
	maskElicitation
	maskRoots
	capsMasks = 1 << iota
	allCaps   = capsMasks - 1
)

func maskOf(c ClientCapabilities) int {
	mask := 0
	if c.Sampling {
		mask |= maskSampling
	}
	if c.Elicitation {
		mask |= maskElicitation
	}
	if c.Roots {
		mask |= maskRoots
	}
	return mask
}

// capsFor is caps without the capabilities mask leaves out.
func capsFor(caps mcpgo.ClientCapabilities, mask int) mcpgo.ClientCapabilities {
	if mask&maskSampling == 0 {
		caps.Sampling = nil
	}
	if mask&maskElicitation == 0 {
		caps.Elicitation = nil
	}
	if mask&maskRoots == 0 {
		caps.Roots = nil
	}
	return caps
}

// probesModern reports whether connecting to the server tries 2026-07-28
// first.
func (d *downstream) probesModern() bool {
	switch d.spec.Transport {
	case TransportStdio, "", TransportHTTP:
		return d.spec.Protocol != ProtocolLegacy
	}
	return false
}

// eitherEraHTTP is a Streamable HTTP transport with continuous listening
// that lets mcp-go's client probe for 2026-07-28. mcp-go refuses to probe
// through a transport that listens continuously, since that revision has no
// standing GET stream; but the transport opens that stream only once the
// connection is initialised, and not at all when it settled on 2026-07-28,
// so a server of the older protocol still gets its stream after the
// fallback, and a current one gets none.
type eitherEraHTTP struct{ *transport.StreamableHTTP }

// RequiresLegacyProtocol reports false: see eitherEraHTTP.
func (eitherEraHTTP) RequiresLegacyProtocol() bool { return false }

// withEraMeta adds the modern connection's _meta to params, keeping the
// request's own _meta entries (a progress token). Legacy params pass
// unchanged.
func (e era) withEraMeta(params any) (any, error) {
	if !e.modern {
		return params, nil
	}
	if call, ok := params.(*toolCallRequest); ok {
		// The call path: add to the struct's _meta, no re-encoding.
		out := *call
		out.Meta = make(map[string]any, len(call.Meta)+len(e.meta))
		for k, v := range call.Meta {
			out.Meta[k] = v
		}
		for k, v := range e.meta {
			out.Meta[k] = v
		}
		return &out, nil
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encode params: %w", err)
	}
	fields := map[string]json.RawMessage{}
	if string(raw) != "null" {
		if err := json.Unmarshal(raw, &fields); err != nil {
			return nil, fmt.Errorf("params are not an object: %w", err)
		}
	}
	meta := make(map[string]any, len(e.meta)+1)
	if own, ok := fields["_meta"]; ok {
		var m map[string]any
		if err := json.Unmarshal(own, &m); err == nil {
			for k, v := range m {
				meta[k] = v
			}
		}
	}
	for k, v := range e.meta {
		meta[k] = v
	}
	encoded, err := json.Marshal(meta)
	if err != nil {
		return nil, fmt.Errorf("encode _meta: %w", err)
	}
	fields["_meta"] = encoded
	return fields, nil
}

// inputRequired is the part of a result that asks for the client's input.
type inputRequired struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  string                     `json:"requestState"`
}

// needsInput reports whether a modern server's result asks for input.
func needsInput(result json.RawMessage) (inputRequired, bool) {
	var ir inputRequired
	if err := json.Unmarshal(result, &ir); err != nil || ir.ResultType != string(mcpgo.ResultTypeInputRequired) {
		return inputRequired{}, false
	}
	return ir, true
}

// callWithInput makes a tools/call on a modern connection and, while the
// server asks for input, fulfils it and retries with the answers and the
// server's requestState. A failure to get the input ends the call with an
// isError result naming it: the server's question went unanswered, which
// the caller sees as the tool's outcome. asTask declares the Tasks
// extension, and a task the server then starts is followed to its end
// (followTask).
func (d *downstream) callWithInput(ctx context.Context, conn *connection, params *toolCallRequest, asTask bool) (json.RawMessage, error) {
	e := conn.era.forClient(ClientFrom(ctx), asTask)
	for round := 0; ; round++ {
		result, err := conn.requestIn(ctx, e, "tools/call", params)
		if err != nil {
			return nil, err
		}
		if asTask { // only then is the result read for a handle
			if handle, ok := taskHandle(result); ok {
				return d.followTask(ctx, conn, handle)
			}
		}
		ir, ok := needsInput(result)
		if !ok {
			d.adviseLegacyAsking(result)
			return result, nil
		}
		if round >= maxInputRounds {
			return unansweredResult(fmt.Errorf("server %s asked for input more than %d times", d.spec.Name, maxInputRounds))
		}
		responses, err := d.fulfil(ctx, ir.InputRequests)
		if err != nil {
			return unansweredResult(err)
		}
		params.InputResponses, params.RequestState = responses, ir.RequestState
	}
}

// unansweredResult is the isError result of a call whose input could not
// be had.
func unansweredResult(err error) (json.RawMessage, error) {
	return json.Marshal(mcpgo.NewToolResultError("the server needed input that could not be given: " + err.Error()))
}

// adviseLegacyAsking says, once per server, what to do when a tool of a
// 2026-07-28 connection failed because it asked the client with a
// server-initiated request, which that revision no longer has: mcp-go
// servers written for the older protocol do so, and mcp-go refuses it on
// such a connection.
func (d *downstream) adviseLegacyAsking(result json.RawMessage) {
	if !bytes.Contains(result, legacyAskingRefused) || d.toldToPin.Swap(true) {
		return
	}
	d.log.Warn(`the server asks the client with requests of protocol 2025-11-25, which 2026-07-28 does not have; set "protocol": "2025-11-25" in its entry`,
		"server", d.spec.Name)
}

// legacyAskingRefused is what mcp-go's server says when a tool asks so.
var legacyAskingRefused = []byte(mcpserver.ErrServerInitiatedRequestUnsupported.Error())

// namesAVersion reports whether a server/discover result names the
// protocol versions the server supports, as every 2026-07-28 server's
// does. Some servers of the older protocol answer any method they do not
// know with an empty result, which mcp-go would take for a server of
// 2026-07-28; with method not found in its place, mcp-go falls back to the
// initialize handshake.
func namesAVersion(result json.RawMessage) bool {
	var r struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	return json.Unmarshal(result, &r) == nil && len(r.SupportedVersions) > 0
}

// checkedDiscover is resp, or, when req is a server/discover that resp
// answers without naming a version, method not found.
func checkedDiscover(req transport.JSONRPCRequest, resp *transport.JSONRPCResponse) *transport.JSONRPCResponse {
	if req.Method != string(mcpgo.MethodServerDiscover) || resp == nil || resp.Error != nil || namesAVersion(resp.Result) {
		return resp
	}
	return &transport.JSONRPCResponse{JSONRPC: resp.JSONRPC, ID: resp.ID, Error: &mcpgo.JSONRPCErrorDetails{
		Code: mcpgo.METHOD_NOT_FOUND, Message: "server/discover answered without supportedVersions"}}
}
