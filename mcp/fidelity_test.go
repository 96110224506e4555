package mcp

import (
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// listedTool is a tools/list entry read raw.
type listedTool struct {
	Name         string                     `json:"name"`
	Title        string                     `json:"title"`
	Description  string                     `json:"description"`
	InputSchema  json.RawMessage            `json:"inputSchema"`
	OutputSchema json.RawMessage            `json:"outputSchema"`
	Annotations  map[string]any             `json:"annotations"`
	Meta         map[string]json.RawMessage `json:"_meta"`
}

func TestReexportedToolKeepsItsSchemasWhole(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	raw := newRawSession(t, st.http.URL(), testToken)
	raw.initialize()
	var list struct {
		Tools []listedTool `json:"tools"`
	}
	if err := json.Unmarshal(raw.request("tools/list", map[string]any{}), &list); err != nil {
		t.Fatal(err)
	}
	var rich *listedTool
	for i := range list.Tools {
		if list.Tools[i].Name == "fix__rich" {
			rich = &list.Tools[i]
		}
	}
	if rich == nil {
		t.Fatalf("fix__rich not listed in %+v", list.Tools)
	}
	checks := []struct{ what, got, want string }{
		{"inputSchema", compactJSON(t, rich.InputSchema), richInputSchema},
		{"outputSchema", compactJSON(t, rich.OutputSchema), richOutputSchema},
		{"title", rich.Title, "Rich tool"},
		{"description", rich.Description, "Read a file or a URL."},
		{"_meta", string(rich.Meta["vendor/x"]), "1"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %s\nwant %s", c.what, c.got, c.want)
		}
	}
	if rich.Annotations["title"] != "Rich" || rich.Annotations["readOnlyHint"] != true {
		t.Errorf("annotations = %v, want title Rich and readOnlyHint true", rich.Annotations)
	}
}

func TestDescribeToolGivesTheRawSchema(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeSearch})
	res := callTool(t, st.client(t, clientOptions{}), DescribeToolName, map[string]any{"name": "fix__rich"})
	if res.IsError {
		t.Fatalf("describe_tool failed: %s", resultText(res))
	}
	var d toolDescription
	if err := json.Unmarshal([]byte(resultText(res)), &d); err != nil {
		t.Fatalf("describe_tool text is not JSON: %v\n%s", err, resultText(res))
	}
	if got := compactJSON(t, d.InputSchema); got != richInputSchema {
		t.Errorf("inputSchema = %s\nwant %s", got, richInputSchema)
	}
	if got := compactJSON(t, d.OutputSchema); got != richOutputSchema {
		t.Errorf("outputSchema = %s\nwant %s", got, richOutputSchema)
	}
	if d.Name != "fix__rich" || d.Server != "fix" || d.Locality != "local" {
		t.Errorf("description = %+v", d)
	}
}

// rawCallResult is a tools/call result read raw.
type rawCallResult struct {
	Content           []json.RawMessage          `json:"content"`
	StructuredContent json.RawMessage            `json:"structuredContent"`
	IsError           bool                       `json:"isError"`
	Meta              map[string]json.RawMessage `json:"_meta"`
}

func TestResultsPassThroughUnchanged(t *testing.T) {
	tests := []struct {
		name   string
		expose Exposure
		tool   string
		args   map[string]any
	}{
		{"direct tool", ExposeDirect, "fix__rich", map[string]any{"path": "a"}},
		{"call_tool", ExposeSearch, CallToolName, map[string]any{"name": "fix__rich", "arguments": map[string]any{"path": "a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newStack(t, Options{Expose: tt.expose})
			raw := newRawSession(t, st.http.URL(), testToken)
			raw.initialize()
			var res rawCallResult
			if err := json.Unmarshal(raw.request("tools/call", map[string]any{"name": tt.tool, "arguments": tt.args}), &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Content) != len(richResultContent) {
				t.Fatalf("content has %d items, want %d: %s", len(res.Content), len(richResultContent), res.Content)
			}
			for i, want := range richResultContent {
				if got := compactJSON(t, res.Content[i]); got != want {
					t.Errorf("content[%d] = %s\nwant %s", i, got, want)
				}
			}
			if got := compactJSON(t, res.StructuredContent); got != `{"size":3}` {
				t.Errorf("structuredContent = %s", got)
			}
			if got := string(res.Meta["trace"]); got != `"abc"` {
				t.Errorf("_meta.trace = %s", got)
			}
		})
	}
}

func TestMCPGoClientSeesStructuredContentAndAnnotations(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	res := callTool(t, st.client(t, clientOptions{legacy: true}), "fix__annotated", nil)
	sc, ok := res.StructuredContent.(map[string]any)
	if !ok || sc["size"] != float64(3) {
		t.Errorf("structuredContent = %#v", res.StructuredContent)
	}
	tc, ok := mcpgo.AsTextContent(res.Content[0])
	if !ok || tc.Annotations == nil || tc.Annotations.Priority == nil || *tc.Annotations.Priority != 0.5 ||
		len(tc.Annotations.Audience) != 1 || tc.Annotations.Audience[0] != mcpgo.RoleUser {
		t.Errorf("first content = %#v, want its annotations", res.Content[0])
	}
}
