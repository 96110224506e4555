package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

// fakeCatalog is a real catalog snapshot whose calls fail with whatever
// error the test sets: failures a live hub produces only by waiting out a
// timeout or a crash.
type fakeCatalog struct {
	cat *hub.Catalog

	mu      sync.Mutex
	callErr error
	calls   []string
}

func newFakeCatalog() *fakeCatalog {
	f := &fakeCatalog{cat: hub.NewCatalog(nil)}
	f.cat.SetServer(hub.ServerMeta{Name: "srv", Locality: hub.LocalityRemote, CostPerCall: 0.002},
		[]hub.RawTool{{Name: "work", Description: "Do some work.", InputSchema: json.RawMessage(`{"type":"object"}`)}})
	return f
}

func (f *fakeCatalog) Snapshot() *hub.Snapshot { return f.cat.Snapshot() }

func (f *fakeCatalog) Call(_ context.Context, name string, _ json.RawMessage, _ hub.CallOptions) (*hub.CallResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, name)
	return nil, f.callErr
}

func (f *fakeCatalog) WatchCatalog(func(*hub.Snapshot)) (stop func()) { return func() {} }

func (f *fakeCatalog) fail(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.callErr = err
}

func TestHubFailuresReachTheClientAsToolErrors(t *testing.T) {
	fake := newFakeCatalog()
	srv := testServer(t, fake, Options{Expose: ExposeBoth})
	c := connectHTTP(t, serveHTTP(t, srv, HTTPOptions{Token: testToken}).URL(), clientOptions{token: testToken})
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"server restarting", &hub.ServerUnavailableError{Server: "srv", State: hub.StateRestarting, Reason: "exit status 2"},
			"server srv cannot take calls: it is restarting after a crash (exit status 2); try again shortly"},
		{"server failed", &hub.ServerUnavailableError{Server: "srv", State: hub.StateFailed, Reason: "gave up after 5 crashes"},
			"server srv cannot take calls: it has failed and toolhub gave up restarting it (gave up after 5 crashes)"},
		{"timeout", &hub.CallTimeoutError{Tool: "srv__work", Timeout: "1m0s"}, "srv__work did not answer within 1m0s"},
		{"result over the hub's cap", &hub.ResultTooLargeError{Server: "srv", Method: "tools/call", Size: 20 << 20, Limit: 16 << 20},
			"over toolhub's limit of 16777216 bytes"},
		{"hub closing", hub.ErrClosed, "toolhub is shutting down"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake.fail(tt.err)
			res := callTool(t, c, "srv__work", map[string]any{})
			if !res.IsError || !strings.Contains(resultText(res), tt.want) {
				t.Errorf("result %q (isError %v), want %q", resultText(res), res.IsError, tt.want)
			}
		})
	}
	res := callTool(t, c, FindToolsName, map[string]any{"query": "work"})
	if text := resultText(res); !strings.Contains(text, "srv__work (server srv, remote, latency not measured yet, $0.002 per call)") {
		t.Errorf("find_tools over the fake catalog: %s", text)
	}
}
