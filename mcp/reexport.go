package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
)

// emptyObjectSchema stands in for a tool that declares no input schema: MCP
// requires one, and {"type":"object"} accepts any arguments object.
var emptyObjectSchema = json.RawMessage(`{"type":"object"}`)

// toolExtras are the members of a listed tool that RawTool does not split
// out but that clients use.
type toolExtras struct {
	Meta  map[string]json.RawMessage `json:"_meta"`
	Icons []mcpgo.Icon               `json:"icons"`
}

// exportTool is the tool a client sees for a catalog tool: the exposed name,
// and the downstream's own title, description, annotations, icons, _meta and
// input and output schemas, unchanged. Decoding a tool into mcpgo.Tool
// would flatten its schemas to type/properties/required and lose top-level
// anyOf, description, $schema and the like, so the schemas stay raw.
//
// "execution" is left out: a tool that requires task augmentation would make
// mcp-go refuse plain calls, and the hub runs such a tool as a task on its
// server itself (hub/downstream_task.go), so clients call it plainly.
func exportTool(t *hub.Tool) mcpgo.Tool {
	schema := t.InputSchema
	if len(bytes.TrimSpace(schema)) == 0 {
		schema = emptyObjectSchema
	}
	tool := mcpgo.NewToolWithRawSchema(t.Name, t.Description, schema)
	tool.Title = t.Title
	if len(bytes.TrimSpace(t.OutputSchema)) > 0 {
		tool.RawOutputSchema = t.OutputSchema
	}
	if len(t.Annotations) > 0 {
		_ = json.Unmarshal(t.Annotations, &tool.Annotations) // a malformed one is dropped
	}
	var extras toolExtras
	if len(t.Raw) > 0 && json.Unmarshal(t.Raw, &extras) == nil {
		tool.Icons = extras.Icons
		if len(extras.Meta) > 0 {
			tool.Meta = rawMeta(extras.Meta)
		}
	}
	return tool
}

// describeTool is describe_tool's answer: everything a client needs to call
// the tool, with its schemas unchanged.
type toolDescription struct {
	Name         string          `json:"name"`
	Server       string          `json:"server"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Locality     hub.Locality    `json:"locality,omitempty"`
	CostPerCall  float64         `json:"costPerCallUSD,omitempty"`
	// CostPerSecond is USD per second of a call's wall time, on top of
	// CostPerCall.
	CostPerSecond float64 `json:"costPerSecondUSD,omitempty"`
	LatencyMs     float64 `json:"latencyMs,omitempty"`
}

func describe(t *hub.Tool) toolDescription {
	schema := t.InputSchema
	if len(bytes.TrimSpace(schema)) == 0 {
		schema = emptyObjectSchema
	}
	return toolDescription{
		Name:          t.Name,
		Server:        t.Server,
		Title:         t.Title,
		Description:   t.Description,
		InputSchema:   schema,
		OutputSchema:  t.OutputSchema,
		Annotations:   t.Annotations,
		Locality:      t.Locality,
		CostPerCall:   t.CostPerCall,
		CostPerSecond: t.CostPerSecond,
		LatencyMs:     latencyMs(t),
	}
}

// latencyMs is the tool's measured moving-average latency in milliseconds,
// zero when it was never called.
func latencyMs(t *hub.Tool) float64 {
	if t.Stats == nil {
		return 0
	}
	v := t.Stats.View()
	if v.Calls == 0 {
		return 0
	}
	// A measured latency is never 0, which reads as never measured: a call
	// quicker than the clock's tick (about half a millisecond on Windows)
	// measures 0 there, and reads as 1 µs.
	return max(float64(v.Latency.Microseconds())/1000, 0.001)
}

// A downstream result must reach the client as the downstream sent it, but
// mcp-go tool handlers return *mcpgo.CallToolResult, and decoding into that
// type is lossy: content of a type mcp-go does not know fails to decode,
// fields it does not model inside a content item are dropped, and some empty
// fields are added back on the way out (a resource_link gains "description"
// and "mimeType"). So every content item is carried as its raw bytes inside
// rawContent, _meta keeps each value's raw bytes, and structuredContent is
// carried raw; only top-level keys outside the MCP result schema are lost.

// rawContent is one content item kept as it came. Embedding TextContent
// makes it an mcpgo.Content; MarshalJSON writes the original bytes.
type rawContent struct {
	mcpgo.TextContent
	raw json.RawMessage
}

// MarshalJSON writes the content item exactly as the downstream sent it.
func (c rawContent) MarshalJSON() ([]byte, error) { return c.raw, nil }

// rawResultFields are the members of a tools/call result that are carried
// over. inputRequests and requestState belong to multi round-trip requests,
// which the hub does not forward, so they are not among them.
type rawResultFields struct {
	Meta              map[string]json.RawMessage `json:"_meta"`
	Content           []json.RawMessage          `json:"content"`
	StructuredContent json.RawMessage            `json:"structuredContent"`
	IsError           bool                       `json:"isError"`
}

// passThrough turns a downstream tools/call result into the result returned
// to the client, losing nothing that the MCP result schema defines.
func passThrough(raw json.RawMessage) (*mcpgo.CallToolResult, error) {
	var fields rawResultFields
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("decode downstream result: %w", err)
	}
	res := &mcpgo.CallToolResult{
		Content: make([]mcpgo.Content, 0, len(fields.Content)),
		IsError: fields.IsError,
	}
	for _, item := range fields.Content {
		res.Content = append(res.Content, rawContent{raw: item})
	}
	if sc := bytes.TrimSpace(fields.StructuredContent); len(sc) > 0 && !bytes.Equal(sc, []byte("null")) {
		res.RawStructuredContent = fields.StructuredContent
	}
	res.Meta = resultMeta(fields.Meta)
	return res, nil
}

// resultMeta is a downstream result's _meta as the client gets it: without
// the downstream's io.modelcontextprotocol/serverInfo, since the result the
// client gets is toolhub's (a 2026-07-28 client is told toolhub's identity
// in its place); nil when nothing else is left. fields, decoded for this
// result alone, loses that key.
func resultMeta(fields map[string]json.RawMessage) *mcpgo.Meta {
	delete(fields, mcpgo.MetaKeyServerInfo)
	if len(fields) == 0 {
		return nil
	}
	return rawMeta(fields)
}

// rawMeta builds an mcpgo.Meta whose values marshal to their original bytes.
func rawMeta(fields map[string]json.RawMessage) *mcpgo.Meta {
	meta := &mcpgo.Meta{AdditionalFields: make(map[string]any, len(fields))}
	for k, v := range fields {
		if k == "progressToken" {
			meta.ProgressToken = v
			continue
		}
		meta.AdditionalFields[k] = v
	}
	return meta
}
