package mcp

import (
	"bytes"
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// stampedResults are the forms a passed-through result leaves in: as it
// is for an older client, stamped for a 2026-07-28 one.
func stampedResults(t *testing.T, downstream string) map[string]*mcpgo.CallToolResult {
	out := map[string]*mcpgo.CallToolResult{}
	for _, stamp := range []string{"older client", "2026-07-28 client"} {
		res, err := passThrough(json.RawMessage(downstream))
		if err != nil {
			return nil
		}
		if stamp == "2026-07-28 client" {
			stampModern(res, json.RawMessage(`{"name":"toolhub","version":"1.0"}`))
		}
		out[stamp] = res
	}
	return out
}

func TestEncodeResultIsWhatEncodingJSONWrites(t *testing.T) {
	for _, tc := range []struct{ name, downstream string }{
		{"text", `{"content":[{"type":"text","text":"Echo: hi"}]}`},
		{"no content", `{}`},
		{"error", `{"content":[{"type":"text","text":"boom"}],"isError":true}`},
		{"structured", `{"content":[],"structuredContent":{"b": [1, 2],"a":"<x>"}}`},
		{"meta", `{"content":[],"_meta":{"z":1,"a":{"k":"&"},"progressToken":"p","io.modelcontextprotocol/serverInfo":{"name":"down"}}}`},
		{"html and line separators", `{"content":[{"type":"text","text":"<a href='x'>&amp;\u2028\u2029</a>"}]}`},
		{"spaces to compact", "{\"content\" : [ { \"type\" : \"text\" , \"text\" : \"a b\" } ] }"},
		{"odd keys", `{"content":[],"_meta":{"a<b":1,"\u00e9":2,"":3}}`},
		{"null structured content", `{"content":[],"structuredContent":null}`},
	} {
		for stamp, res := range stampedResults(t, tc.downstream) {
			t.Run(tc.name+"/"+stamp, func(t *testing.T) {
				want, err := json.Marshal(res)
				if err != nil {
					t.Fatal(err)
				}
				got, err := encodeResult(res)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("encodeResult:\n got %s (%v)\nwant %s", got, err, want)
				}
				if _, ok := appendRawResult(nil, res); !ok {
					t.Error("a passed-through result took the slow path")
				}
			})
		}
	}
}

func TestEncodeResultLeavesOtherShapesToEncodingJSON(t *testing.T) {
	for name, res := range map[string]*mcpgo.CallToolResult{
		"typed content":      mcpgo.NewToolResultText("hi"),
		"input required":     {MultiRoundTripResult: mcpgo.MultiRoundTripResult{RequestState: "s"}},
		"typed meta":         {Result: mcpgo.Result{Meta: &mcpgo.Meta{AdditionalFields: map[string]any{"n": 1}}}},
		"typed structured":   {StructuredContent: map[string]int{"a": 1}},
		"not JSON":           {Content: []mcpgo.Content{rawContent{raw: json.RawMessage(`{`)}}},
		"empty content item": {Content: []mcpgo.Content{rawContent{}}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, ok := appendRawResult(nil, res); ok {
				t.Fatal("took the fast path")
			}
			got, gotErr := encodeResult(res)
			want, wantErr := json.Marshal(res)
			if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("encodeResult %s (%v), json.Marshal %s (%v)", got, gotErr, want, wantErr)
			}
		})
	}
}

// FuzzEncodeResult checks encodeResult against encoding/json on whatever
// a downstream may answer.
func FuzzEncodeResult(f *testing.F) {
	for _, c := range richResultContent {
		f.Add(`{"content":[` + c + `],"structuredContent":{"a":1}}`)
	}
	f.Add(`{"content":[1,"x",null],"isError":true,"_meta":{"k":[1],"progressToken":2}}`)
	f.Add(`{"content":[{"text":"<\u2028>"}],"_meta":{"a&b":"\ud800"}}`)
	f.Fuzz(func(t *testing.T, in string) {
		for stamp, res := range stampedResults(t, in) {
			want, wantErr := json.Marshal(res)
			got, gotErr := encodeResult(res)
			if (gotErr == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
				t.Fatalf("%s, %s: encodeResult %s (%v), json.Marshal %s (%v)", in, stamp, got, gotErr, want, wantErr)
			}
		}
	})
}
