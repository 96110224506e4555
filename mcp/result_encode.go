package mcp

import (
	"bytes"
	"encoding/json"
	"slices"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// encodeResult is json.Marshal(res), byte for byte, written directly for
// the results passThrough makes (content items and _meta values kept as
// raw JSON, stamped with a resultType and a raw serverInfo). mcp-go's own
// encoder first copies the result into maps; a tool call's result is
// encoded once per call on every path. Results of any other shape, and any
// value encoding/json would refuse, go to json.Marshal.
func encodeResult(res *mcpgo.CallToolResult) ([]byte, error) {
	if out, ok := appendRawResult(make([]byte, 0, 256), res); ok {
		return out, nil
	}
	return json.Marshal(res)
}

// appendRawResult appends res as encoding/json writes the map mcp-go's
// CallToolResult.MarshalJSON builds: keys sorted (_meta, content, isError,
// resultType, structuredContent), raw values compacted with <, > and &
// escaped. ok is false for a result it does not cover.
func appendRawResult(dst []byte, res *mcpgo.CallToolResult) ([]byte, bool) {
	if res.StructuredContent != nil || len(res.InputRequests) > 0 || res.RequestState != "" {
		return nil, false
	}
	dst = append(dst, '{')
	if res.Meta != nil {
		var ok bool
		dst = append(dst, `"_meta":`...)
		if dst, ok = appendRawMeta(dst, res.Meta); !ok {
			return nil, false
		}
		dst = append(dst, ',')
	}
	dst = append(dst, `"content":[`...)
	for i, c := range res.Content {
		item, ok := c.(rawContent)
		if !ok || item.raw == nil { // encoding/json refuses an empty Marshaler output
			return nil, false
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		if dst, ok = appendRawValue(dst, item.raw); !ok {
			return nil, false
		}
	}
	dst = append(dst, ']')
	if res.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	if res.ResultType != "" {
		dst = append(dst, `,"resultType":`...)
		dst = appendJSONString(dst, string(res.ResultType))
	}
	if len(res.RawStructuredContent) > 0 {
		var ok bool
		dst = append(dst, `,"structuredContent":`...)
		if dst, ok = appendRawValue(dst, res.RawStructuredContent); !ok {
			return nil, false
		}
	}
	return append(dst, '}'), true
}

// appendRawMeta appends a _meta whose values are all raw JSON, as
// Meta.MarshalJSON writes it.
func appendRawMeta(dst []byte, m *mcpgo.Meta) ([]byte, bool) {
	keys := make([]string, 0, len(m.AdditionalFields)+1)
	for k := range m.AdditionalFields {
		keys = append(keys, k)
	}
	if m.ProgressToken != nil {
		if _, ok := m.AdditionalFields["progressToken"]; !ok {
			keys = append(keys, "progressToken")
		}
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		v, ok := m.AdditionalFields[k]
		if !ok {
			v = m.ProgressToken
		}
		raw, ok := v.(json.RawMessage)
		if !ok {
			return nil, false
		}
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendJSONString(dst, k), ':')
		if dst, ok = appendRawValue(dst, raw); !ok {
			return nil, false
		}
	}
	return append(dst, '}'), true
}

// appendRawValue appends raw as encoding/json writes a json.RawMessage:
// compacted, with <, >, &, U+2028 and U+2029 escaped, and nil as null. ok
// is false when raw is not JSON (encoding/json then fails, with its own
// error).
func appendRawValue(dst, raw []byte) ([]byte, bool) {
	if raw == nil {
		return append(dst, "null"...), true
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		return nil, false
	}
	out := bytes.NewBuffer(dst)
	json.HTMLEscape(out, compact.Bytes())
	return out.Bytes(), true
}

// appendJSONString appends s as encoding/json encodes a string.
func appendJSONString(dst []byte, s string) []byte {
	enc, _ := json.Marshal(s) // a string always encodes
	return append(dst, enc...)
}
