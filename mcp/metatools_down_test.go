package mcp

import (
	"strings"
	"testing"
	"time"

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
