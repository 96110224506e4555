package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/hub"
)

func TestErrorTextSaysWhatWentWrong(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"unknown tool with suggestions", &hub.UnknownToolError{Name: "fs__raed", Suggestions: []string{"fs__read", "fs__rename"}},
			[]string{`unknown tool "fs__raed"`, "did you mean fs__read, fs__rename?"}},
		{"unknown tool alone", &hub.UnknownToolError{Name: "zzz"}, []string{`unknown tool "zzz"`}},
		{"invalid arguments", &hub.InvalidArgumentsError{Tool: "fs__read", Fields: []hub.FieldError{
			{Path: "/path", Message: "want string"}, {Path: "", Message: "missing property limit"}}},
			[]string{"invalid arguments for fs__read", "not sent", "- /path: want string", "- (arguments): missing property limit"}},
		{"server restarting", &hub.ServerUnavailableError{Server: "fs", State: hub.StateRestarting, Reason: "exit status 1"},
			[]string{"server fs", "restarting", "exit status 1", "try again shortly"}},
		{"server failed", &hub.ServerUnavailableError{Server: "fs", State: hub.StateFailed, Reason: "gave up"},
			[]string{"server fs", "failed", "gave up"}},
		{"server retrying", &hub.ServerUnavailableError{Server: "gh", State: hub.StateRetrying, Reason: "connection refused", RetryIn: 30 * time.Second},
			[]string{"server gh", "retrying in 30 s", "connection refused", "try again shortly"}},
		{"server invalid", &hub.ServerUnavailableError{Server: "gh", State: hub.StateInvalid, Reason: `c.json:2:91: env.KEY: "${input:token}" is not a variable reference`},
			[]string{"server gh", "invalid", "c.json:2:91", "is not a variable reference"}},
		{"timeout", &hub.CallTimeoutError{Tool: "fs__read", Timeout: "1m0s"}, []string{"fs__read did not answer within 1m0s"}},
		{"our size cap", &ResultTooLargeError{Tool: "fs__read", Size: 10, Limit: 5}, []string{"10 bytes", "limit of 5 bytes"}},
		{"hub size cap", fmt.Errorf("wrapped: %w", &hub.ResultTooLargeError{Server: "fs", Size: 99, Limit: 50}),
			[]string{"limit of 50 bytes", "at least 99 bytes"}},
		{"closed", hub.ErrClosed, []string{"shutting down"}},
		{"cancelled", fmt.Errorf("server fs: call read: %w", context.Canceled), []string{"was cancelled"}},
		{"transport failure", errors.New("server fs: call read: transport closed"), []string{"call to fs__read failed", "transport closed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := errorResult("fs__read", tt.err)
			if !res.IsError {
				t.Error("result is not marked isError")
			}
			text := resultText(res)
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("text %q lacks %q", text, w)
				}
			}
		})
	}
}

func TestCallErrorsReachTheClientAsToolErrors(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeBoth, MaxResultBytes: 1000})
	c := st.client(t, clientOptions{})
	tests := []struct {
		name string
		tool string
		args map[string]any
		want []string
	}{
		{"invalid arguments name each field", "fix__typed", map[string]any{"count": 0},
			[]string{"invalid arguments for fix__typed", "/count", "name"}},
		{"a result over the cap", "fix__big", map[string]any{"bytes": 5000}, []string{"limit of 1000 bytes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := callTool(t, c, tt.tool, tt.args)
			text := resultText(res)
			if !res.IsError {
				t.Fatalf("result is not an error: %s", text)
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("text %q lacks %q", text, w)
				}
			}
		})
	}
	if res := callTool(t, c, "fix__big", map[string]any{"bytes": 500}); res.IsError {
		t.Errorf("a result under the cap failed: %s", resultText(res))
	}
}

func TestCallToolWithAnUnknownNameSuggestsTheRightOne(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeSearch})
	c := st.client(t, clientOptions{})
	res := callTool(t, c, CallToolName, map[string]any{"name": "fix__ehco", "arguments": map[string]any{}})
	if !res.IsError || !strings.Contains(resultText(res), "did you mean fix__echo") {
		t.Errorf("result = %q (isError %v), want a suggestion of fix__echo", resultText(res), res.IsError)
	}
	res = callTool(t, c, DescribeToolName, map[string]any{"name": "fix__ech"})
	if !res.IsError || !strings.Contains(resultText(res), "fix__echo") {
		t.Errorf("describe_tool result = %q, want a suggestion of fix__echo", resultText(res))
	}
	res = callTool(t, c, CallToolName, map[string]any{"arguments": map[string]any{}})
	if !res.IsError || !strings.Contains(resultText(res), `"name"`) {
		t.Errorf("call_tool without a name = %q, want it to ask for one", resultText(res))
	}
}

func TestDownstreamThatDiesMidCall(t *testing.T) {
	h := testHub(t, nil, childSpec(t, "child"))
	srv := testServer(t, h, Options{Expose: ExposeDirect})
	c := connectHTTP(t, serveHTTP(t, srv, HTTPOptions{Token: testToken}).URL(), clientOptions{token: testToken})
	if res := callTool(t, c, "child__echo", map[string]any{"message": "alive"}); res.IsError {
		t.Fatalf("the child does not answer: %s", resultText(res))
	}
	res := callTool(t, c, "child__vanish", nil)
	text := resultText(res)
	if !res.IsError || !strings.Contains(text, "child") {
		t.Fatalf("result = %q (isError %v), want an error naming the server", text, res.IsError)
	}
	t.Logf("the client saw: %s", text)
}
