// Command gosdkclient runs the interop checks of mcp/testdata/interop with
// the official Go SDK's client and prints one JSON line per check:
//
//	gosdkclient stdio COMMAND ARGS... | gosdkclient http URL
//	gosdkclient bench [flags] NAME=TOOL@URL...   (bench.go)
//
// go.mod builds it with v1.6.1, the newest release whose client negotiates
// protocol 2025-11-25 by default (latestProtocolVersion in its
// mcp/shared.go; v1.7.0 moved to 2026-07-28); -modfile=go.v1.8.0.mod builds
// the same source with v1.8.0, which negotiates 2026-07-28. The bearer
// token comes from INTEROP_TOKEN; the list_changed check writes
// INTEROP_CONFIG_CHANGED over the config file INTEROP_CONFIG.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	rootURI  = "file:///interop/root"
	sampled  = "interop-sampled-text"
	elicited = "interop-elicited-name"
	// research is what server-everything's task-only research tool reports
	// once the client has picked the interpretation elicitAnswer gives.
	research     = "# Research Report: python (snake)"
	checkTimeout = 45 * time.Second
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gosdkclient:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) > 0 && args[0] == "bench" {
		return runBench(args[1:])
	}
	transport, err := transportFor(args)
	if err != nil {
		return err
	}
	s := &state{}
	client := sdk.NewClient(&sdk.Implementation{Name: "interop-gosdkclient", Version: "1"}, &sdk.ClientOptions{
		CreateMessageHandler: func(context.Context, *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
			return &sdk.CreateMessageResult{Model: "interop-model", Role: "assistant", Content: &sdk.TextContent{Text: sampled}}, nil
		},
		ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: elicitAnswer(req.Params.RequestedSchema)}, nil
		},
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			s.sawProgress(req.Params.ProgressToken)
		},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { s.listChanged.Add(1) },
	})
	client.AddRoots(&sdk.Root{URI: rootURI, Name: "interop"})
	ctx := context.Background()
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	s.cs = cs
	report("connect", nil, cs.InitializeResult().ProtocolVersion)
	for _, c := range s.checks() {
		ctx, cancel := context.WithTimeout(ctx, checkTimeout)
		detail, err := c.run(ctx)
		cancel()
		report(c.name, err, detail)
	}
	return nil
}

func transportFor(args []string) (sdk.Transport, error) {
	switch {
	case len(args) >= 2 && args[0] == "stdio":
		cmd := exec.Command(args[1], args[2:]...)
		cmd.Stderr = os.Stderr
		return &sdk.CommandTransport{Command: cmd}, nil
	case len(args) == 2 && args[0] == "http":
		return &sdk.StreamableClientTransport{Endpoint: args[1], MaxRetries: -1,
			HTTPClient: &http.Client{Transport: bearer{token: os.Getenv("INTEROP_TOKEN")}}}, nil
	}
	return nil, errors.New("usage: stdio COMMAND [ARGS...] | http URL")
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func report(check string, err error, detail string) {
	line := map[string]any{"check": check, "ok": err == nil, "detail": detail}
	if err != nil {
		line["detail"] = err.Error()
	}
	data, _ := json.Marshal(line)
	fmt.Println(string(data))
}

type state struct {
	cs          *sdk.ClientSession
	progress    sync.Map // progress token → *atomic.Int64
	listChanged atomic.Int64
}

// sawProgress counts one progress notification for token.
func (s *state) sawProgress(token any) {
	n, _ := s.progress.LoadOrStore(fmt.Sprint(token), new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
}

// progressOf is how many progress notifications named token: a late one
// of an earlier call never counts for a later call.
func (s *state) progressOf(token string) int64 {
	n, ok := s.progress.Load(token)
	if !ok {
		return 0
	}
	return n.(*atomic.Int64).Load()
}

type check struct {
	name string
	run  func(context.Context) (string, error)
}

func (s *state) call(ctx context.Context, name string, args map[string]any, token string) (*sdk.CallToolResult, string, error) {
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	if token != "" {
		params.SetProgressToken(token)
	}
	res, err := s.cs.CallTool(ctx, params)
	if err != nil {
		return nil, "", err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return res, b.String(), fmt.Errorf("%s answered an error: %s", name, b.String())
	}
	return res, b.String(), nil
}

// callContaining calls a tool and wants want in its text.
func (s *state) callContaining(name string, args map[string]any, want string) func(context.Context) (string, error) {
	return func(ctx context.Context) (string, error) {
		_, text, err := s.call(ctx, name, args, "")
		if err != nil {
			return "", err
		}
		if !strings.Contains(text, want) {
			return "", fmt.Errorf("%s answered %q, without %q", name, text, want)
		}
		return fmt.Sprintf("%s came back", want), nil
	}
}

// elicitAnswer fills the form a server asks for: the research tool's
// interpretation, else a name.
func elicitAnswer(schema any) map[string]any {
	if b, err := json.Marshal(schema); err == nil && bytes.Contains(b, []byte(`"interpretation"`)) {
		return map[string]any{"interpretation": "snake"}
	}
	return map[string]any{"name": elicited}
}
