package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

const testToken = "test-token-0123456789abcdef"

// stack is a hub over the fixture, the MCP surface over the hub, and its
// HTTP endpoint.
type stack struct {
	fix    *fixture
	server *Server
	http   *HTTPServer
}

func newStack(t *testing.T, opts Options) *stack {
	t.Helper()
	fix := newFixture()
	relay := NewRelay()
	h := testHub(t, relay, inProcess("fix", fix.srv))
	opts.Relay = relay
	srv := testServer(t, h, opts)
	return &stack{fix: fix, server: srv, http: serveHTTP(t, srv, HTTPOptions{Token: testToken})}
}

func (s *stack) client(t *testing.T, o clientOptions) *mcpclient.Client {
	t.Helper()
	o.token = testToken
	return connectHTTP(t, s.http.URL(), o)
}

var fixtureTools = []string{"fix__annotated", "fix__big", "fix__echo", "fix__fail", "fix__logs", "fix__rich", "fix__slow", "fix__typed"}

func TestExposureModesListTheRightTools(t *testing.T) {
	tests := []struct {
		name   string
		expose Exposure
		want   []string
	}{
		{"direct lists every catalog tool", ExposeDirect, fixtureTools},
		{"search lists the search surface only", ExposeSearch, []string{CallToolName, DescribeToolName, FindToolsName}},
		{"both adds find_tools to every catalog tool", ExposeBoth, append(slices.Clone(fixtureTools), FindToolsName)},
		{"the default is both", "", append(slices.Clone(fixtureTools), FindToolsName)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newStack(t, Options{Expose: tt.expose})
			for _, legacy := range []bool{false, true} {
				got := listToolNames(t, st.client(t, clientOptions{legacy: legacy}))
				slices.Sort(got)
				want := slices.Clone(tt.want)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("legacy=%v: tools = %v, want %v", legacy, got, want)
				}
			}
		})
	}
}

// TestToolDescriptionsNameOnlyListedTools: a description that sends the
// reader to another of toolhub's tools names one the same list holds.
func TestToolDescriptionsNameOnlyListedTools(t *testing.T) {
	for _, e := range []Exposure{ExposeDirect, ExposeSearch, ExposeBoth} {
		t.Run(string(e), func(t *testing.T) {
			c := newStack(t, Options{Expose: e}).client(t, clientOptions{})
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			res, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			listed := map[string]bool{}
			for _, tool := range res.Tools {
				listed[tool.Name] = true
			}
			for _, tool := range res.Tools {
				for _, named := range []string{FindToolsName, DescribeToolName, CallToolName} {
					if named != tool.Name && strings.Contains(tool.Description, named) && !listed[named] {
						t.Errorf("%s's description names %s, which is not listed: %q", tool.Name, named, tool.Description)
					}
				}
			}
		})
	}
}

func TestParseExposure(t *testing.T) {
	for _, in := range []string{"direct", "search", "both"} {
		if got, err := ParseExposure(in); err != nil || string(got) != in {
			t.Errorf("ParseExposure(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "Direct", "all", "search "} {
		if _, err := ParseExposure(in); err == nil {
			t.Errorf("ParseExposure(%q) accepted", in)
		}
	}
	if _, err := NewServer(nil, Options{Expose: "everything"}); err == nil {
		t.Error("NewServer accepted an unknown exposure")
	}
}

func TestDirectToolForwardsTheCall(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	c := st.client(t, clientOptions{})
	res := callTool(t, c, "fix__echo", map[string]any{"message": "hello"})
	if res.IsError || resultText(res) != "echo: hello" {
		t.Fatalf("result = %+v, want the echo", res)
	}
	res = callTool(t, c, "fix__fail", nil)
	if !res.IsError || resultText(res) != "it broke" {
		t.Fatalf("result = %+v, want the tool's own error unchanged", res)
	}
}
