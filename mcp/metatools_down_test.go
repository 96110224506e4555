package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
)

// listingCatalog is a fakeCatalog that also reports server states, as the
// hub does.
type listingCatalog struct {
	*fakeCatalog
	servers []hub.ServerStatus
}

func (l *listingCatalog) Servers() []hub.ServerStatus { return l.servers }

func TestFindToolsShowsDownServers(t *testing.T) {
	cases := []struct {
		name    string
		servers []hub.ServerStatus
		want    []string
		notWant []string
	}{
		{"all up", []hub.ServerStatus{{Name: "srv", State: hub.StateReady}}, nil, []string{"Down now"}},
		{"one retrying, one invalid", []hub.ServerStatus{
			{Name: "srv", State: hub.StateReady},
			{Name: "gh", State: hub.StateRetrying, LastError: "connection refused", NextRetry: time.Now().Add(time.Hour)},
			{Name: "bad", State: hub.StateInvalid, LastError: `c.json:2:91: "${input:token}" is not a variable reference`},
		}, []string{
			"Down now",
			"server gh is retrying: retrying in ", "s: connection refused",
			"server bad is invalid: c.json:2:91",
		}, []string{"server srv is"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cat := &listingCatalog{fakeCatalog: newFakeCatalog(), servers: tc.servers}
			srv := testServer(t, cat, Options{Expose: ExposeBoth})
			c := connectHTTP(t, serveHTTP(t, srv, HTTPOptions{Token: testToken}).URL(), clientOptions{token: testToken})
			res := callTool(t, c, FindToolsName, map[string]any{"query": "work"})
			text := resultText(res)
			if !strings.Contains(text, "srv__work") {
				t.Errorf("the up server's tool is missing: %s", text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("find_tools %q lacks %q", text, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(text, w) {
					t.Errorf("find_tools %q has %q", text, w)
				}
			}
		})
	}
}

// downCatalog is a listingCatalog whose hub answers calls of a down
// server's tools with that server's state, as hub.Hub does.
type downCatalog struct{ *listingCatalog }

func (d downCatalog) DownServer(name string) (hub.ServerStatus, bool) {
	server, _, _ := strings.Cut(name, "__")
	for _, st := range d.servers {
		if st.Name == server {
			return st, st.Down()
		}
	}
	return hub.ServerStatus{}, false
}

// AnyServerDown says whether DownServer would find a down server, as
// hub.Hub does, so that the HTTP surface skips the check when none is.
func (d downCatalog) AnyServerDown() bool {
	for _, st := range d.servers {
		if st.Down() {
			return true
		}
	}
	return false
}

func (d downCatalog) Call(ctx context.Context, name string, args json.RawMessage, o hub.CallOptions) (*hub.CallResult, error) {
	if st, down := d.DownServer(name); down {
		return nil, &hub.ServerUnavailableError{Server: st.Name, State: st.State, Reason: st.LastError}
	}
	if _, err := d.listingCatalog.Call(ctx, name, args, o); err != nil {
		return nil, err
	}
	return &hub.CallResult{Raw: json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`)}, nil
}

func TestCallOfADownServersToolSaysWhyOverHTTP(t *testing.T) {
	cat := downCatalog{&listingCatalog{fakeCatalog: newFakeCatalog(), servers: []hub.ServerStatus{
		{Name: "srv", State: hub.StateReady},
		{Name: "gh", State: hub.StateInvalid, LastError: `secret "gh.token" is not set`},
	}}}
	url := serveHTTP(t, testServer(t, cat, Options{Expose: ExposeBoth}), HTTPOptions{Token: testToken}).URL()
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy=%v", legacy), func(t *testing.T) {
			checkDownToolCalls(t, connectHTTP(t, url, clientOptions{token: testToken, legacy: legacy}))
		})
	}
}

func checkDownToolCalls(t *testing.T, c *mcpclient.Client) {
	t.Helper()
	cases := []struct {
		name, tool string
		protocol   bool // mcp-go's own "not found" error, not a result
		isError    bool
		want       string
	}{
		{"down server", "gh__create_issue", false, true, `server gh cannot take calls: it is invalid: its config entry cannot be used (secret "gh.token" is not set)`},
		{"no such server", "nobody__tool", true, false, "nobody__tool' not found"},
		{"up server", "srv__work", false, false, "done"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			var req mcpgo.CallToolRequest
			req.Params.Name = tc.tool
			res, err := c.CallTool(ctx, req)
			if tc.protocol {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("call %s: error %v, want one saying %q", tc.tool, err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("call %s: %v", tc.tool, err)
			}
			if res.IsError != tc.isError || !strings.Contains(resultText(res), tc.want) {
				t.Errorf("result %q (isError %v), want %q (isError %v)", resultText(res), res.IsError, tc.want, tc.isError)
			}
		})
	}
}
