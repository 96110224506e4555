package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// notes collects the notifications one client receives.
type notes struct {
	mu   sync.Mutex
	list []mcpgo.JSONRPCNotification
}

func (n *notes) add(x mcpgo.JSONRPCNotification) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, x)
}

func (n *notes) of(method string) []map[string]any {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []map[string]any
	for _, x := range n.list {
		if x.Method == method {
			out = append(out, x.Params.AdditionalFields)
		}
	}
	return out
}

// waitFor polls until cond holds or waitLimit passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// callWithProgress calls name asking for progress under token.
func callWithProgress(ctx context.Context, c *mcpclient.Client, name string, args map[string]any, token any) (*mcpgo.CallToolResult, error) {
	var req mcpgo.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	req.Params.Meta = &mcpgo.Meta{ProgressToken: token}
	return c.CallTool(ctx, req)
}

func TestProgressReachesOnlyTheCallingClient(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	type caller struct {
		label  string
		token  any
		legacy bool
		notes  *notes
		c      *mcpclient.Client
	}
	callers := []*caller{
		{label: "A", token: "same-token", legacy: true},
		{label: "B", token: "same-token", legacy: false},
		{label: "C", token: float64(42), legacy: true},
	}
	for _, cl := range callers {
		cl.notes = &notes{}
		cl.c = st.client(t, clientOptions{legacy: cl.legacy, onNote: cl.notes.add})
	}
	bystander := &notes{}
	st.client(t, clientOptions{legacy: true, listen: true, onNote: bystander.add})

	var wg sync.WaitGroup
	errs := make(chan error, len(callers))
	for _, cl := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			res, err := callWithProgress(ctx, cl.c, "fix__slow",
				map[string]any{"steps": 4, "delay_ms": 20, "label": cl.label}, cl.token)
			if err == nil && (res.IsError || resultText(res) != cl.label+" done") {
				err = fmt.Errorf("%s: result %q", cl.label, resultText(res))
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, cl := range callers {
		got := cl.notes.of("notifications/progress")
		if len(got) != 4 {
			t.Errorf("%s got %d progress notifications, want 4", cl.label, len(got))
		}
		for _, p := range got {
			if p["progressToken"] != cl.token || !strings.HasPrefix(fmt.Sprint(p["message"]), cl.label+" ") {
				t.Errorf("%s (token %v) got progress %v", cl.label, cl.token, p)
			}
		}
	}
	if got := bystander.of("notifications/progress"); len(got) > 0 {
		t.Errorf("a client that called nothing got progress %v", got)
	}
}

func TestCancelledCallStopsTheDownstream(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	for _, legacy := range []bool{true, false} {
		t.Run(fmt.Sprintf("legacy=%v", legacy), func(t *testing.T) {
			c := st.client(t, clientOptions{legacy: legacy})
			label := fmt.Sprintf("cancel-%v", legacy)
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() {
				_, err := callWithProgress(ctx, c, "fix__slow",
					map[string]any{"steps": 100000, "delay_ms": 10, "label": label}, "p")
				done <- err
			}()
			expectLabel(t, st.fix.started, label, "start")
			cancel()
			expectLabel(t, st.fix.cancelled, label, "cancellation")
			if err := <-done; err == nil {
				t.Error("the cancelled call returned a result")
			}
		})
	}
}

// expectLabel waits for label on ch.
func expectLabel(t *testing.T, ch <-chan string, label, what string) {
	t.Helper()
	select {
	case got := <-ch:
		if got != label {
			t.Fatalf("%s of %q, want %q", what, got, label)
		}
	case <-time.After(waitLimit):
		t.Fatalf("no %s of %q", what, label)
	}
}

func TestListChangedFollowsTheCatalog(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeBoth})
	n := &notes{}
	c := st.client(t, clientOptions{legacy: true, listen: true, onNote: n.add})
	before := len(n.of("notifications/tools/list_changed"))
	st.fix.srv.AddTool(mcpgo.NewTool("added", mcpgo.WithDescription("A tool added while running.")), st.fix.echo)
	waitFor(t, "tools/list_changed", func() bool { return len(n.of("notifications/tools/list_changed")) > before })
	if names := listToolNames(t, c); !slices.Contains(names, "fix__added") {
		t.Errorf("after list_changed the list is %v, without fix__added", names)
	}
}

func TestSearchSurfaceStaysStableButFindsNewTools(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeSearch})
	n := &notes{}
	c := st.client(t, clientOptions{legacy: true, listen: true, onNote: n.add})
	st.fix.srv.AddTool(mcpgo.NewTool("frobnicate", mcpgo.WithDescription("Frobnicate the widgets.")), st.fix.echo)
	waitFor(t, "the new tool to be findable", func() bool {
		return strings.Contains(resultText(callTool(t, c, FindToolsName, map[string]any{"query": "frobnicate"})), "fix__frobnicate")
	})
	if got := n.of("notifications/tools/list_changed"); len(got) > 0 {
		t.Errorf("the search surface changed: %d list_changed", len(got))
	}
}

func TestLogMessagesFollowTheClientsLevel(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	tests := []struct {
		name  string
		level mcpgo.LoggingLevel // "" sets none
		want  []string
	}{
		{"no level chosen: what the downstream sends", "", []string{"debug", "info", "error"}},
		{"error and above", mcpgo.LoggingLevelError, []string{"error"}},
		{"info and above", mcpgo.LoggingLevelInfo, []string{"info", "error"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := &notes{}
			c := st.client(t, clientOptions{legacy: true, onNote: n.add})
			if tt.level != "" {
				var req mcpgo.SetLevelRequest
				req.Params.Level = tt.level
				if err := c.SetLevel(t.Context(), req); err != nil {
					t.Fatal(err)
				}
			}
			label := strings.ReplaceAll(tt.name, " ", "-")
			callTool(t, c, "fix__logs", map[string]any{"label": label})
			var got []string
			for _, m := range n.of("notifications/message") {
				data := fmt.Sprint(m["data"])
				if !strings.HasPrefix(data, label+" ") {
					t.Errorf("got another call's log %q", data)
				}
				got = append(got, fmt.Sprint(m["level"]))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("log levels received = %v, want %v", got, tt.want)
			}
		})
	}
}
