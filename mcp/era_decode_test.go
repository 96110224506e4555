package mcp

import (
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// metaVersionByDecoding is how mcp-go reads the version: the whole body
// decoded, then Meta.ProtocolVersion. metaVersion must agree with it.
func metaVersionByDecoding(body []byte) string {
	var msg struct {
		Params struct {
			Meta *mcpgo.Meta `json:"_meta"`
		} `json:"params"`
	}
	if len(body) == 0 || json.Unmarshal(body, &msg) != nil {
		return ""
	}
	return msg.Params.Meta.ProtocolVersion()
}

func TestMetaVersion(t *testing.T) {
	const key = `"io.modelcontextprotocol/protocolVersion"`
	for _, tc := range []struct {
		name, body, want string
	}{
		{"modern call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":{` + key + `:"2026-07-28"}}}`, "2026-07-28"},
		{"escaped slash in the key", `{"params":{"_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-07-28"}}}`, "2026-07-28"},
		{"escaped value", `{"params":{"_meta":{` + key + `:"2026\u002d07-28"}}}`, "2026-07-28"},
		{"field names in another case", `{"Params":{"_META":{` + key + `:"2026-07-28"}}}`, "2026-07-28"},
		{"initialize names a version, not in _meta", `{"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`, ""},
		{"no _meta", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}`, ""},
		{"no params", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, ""},
		{"version not a string", `{"params":{"_meta":{` + key + `:20260728}}}`, ""},
		{"params not an object", `{"params":"x"}`, ""},
		{"_meta null", `{"params":{"_meta":null}}`, ""},
		{"a dotted path is not the key", `{"params":{"_meta":{"io":{"modelcontextprotocol/protocolVersion":"2026-07-28"}}}}`, ""},
		{"not JSON", `{"params":{"_meta":{` + key + `:"2026-07-28"}}`, ""},
		{"empty", ``, ""},
		{"batch", `[{"params":{"_meta":{` + key + `:"2026-07-28"}}}]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := metaVersion([]byte(tc.body)); got != tc.want {
				t.Errorf("metaVersion = %q, want %q", got, tc.want)
			}
			if got := metaVersionByDecoding([]byte(tc.body)); got != tc.want {
				t.Errorf("decoding gives %q, want %q: the case is wrong", got, tc.want)
			}
		})
	}
}

// FuzzMetaVersion checks metaVersion against decoding on bodies made by
// encoding/json, so that no key repeats (where the first and the last of
// a repeated key could differ).
func FuzzMetaVersion(f *testing.F) {
	f.Add("2026-07-28", "params", "_meta", "x", "y", true)
	f.Add("2025-11-25", "params", "_meta", "progressToken", "7", false)
	f.Add("", "params", "meta", "a.b", `"`, true)
	f.Fuzz(func(t *testing.T, version, paramsKey, metaKey, otherKey, otherValue string, asString bool) {
		var v any = version
		if !asString {
			v = len(version)
		}
		meta := map[string]any{mcpgo.MetaKeyProtocolVersion: v, otherKey: otherValue}
		body, err := json.Marshal(map[string]any{
			"jsonrpc": "2.0", "method": "tools/call",
			paramsKey: map[string]any{metaKey: meta, "name": otherValue},
		})
		if err != nil {
			t.Skip()
		}
		if got, want := metaVersion(body), metaVersionByDecoding(body); got != want {
			t.Fatalf("metaVersion(%s) = %q, decoding gives %q", body, got, want)
		}
	})
}

// FuzzCallHeadersMatch checks callHeadersMatch against mcp-go's own check
// of a tools/call's standard headers.
func FuzzCallHeadersMatch(f *testing.F) {
	f.Add("tools/call", "echo", "echo")
	f.Add("tools/call", "=?base64?ZWNobw==?=", "echo")
	f.Add("tools/list", "echo", "echo")
	f.Add("tools/call", "", "echo")
	f.Add("", "echo", "echo")
	f.Add("tools/call", "=?base64?!!?=", "echo")
	f.Fuzz(func(t *testing.T, method, name, bodyName string) {
		header := func(h string) string {
			switch h {
			case mcpgo.HeaderMethod:
				return method
			case mcpgo.HeaderName:
				return name
			}
			return ""
		}
		params, err := json.Marshal(map[string]string{"name": bodyName})
		if err != nil {
			t.Skip()
		}
		var decoded shortCallParams // the name as the short path reads it
		if err := json.Unmarshal(params, &decoded); err != nil {
			t.Fatal(err)
		}
		want := mcpgo.ValidateStandardHeaders(header, mcpgo.ProtocolVersion20260728, mcpgo.MethodToolsCall, params) == nil
		if got := callHeadersMatch(header, decoded.Name); got != want {
			t.Fatalf("callHeadersMatch(%q, %q, body %q) = %v, mcp-go says %v", method, name, bodyName, got, want)
		}
	})
}
