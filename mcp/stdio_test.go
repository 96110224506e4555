package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"

	"github.com/toolhub/toolhub/internal/testenv"
)

// outputLines splits what the server wrote to its stdout into lines.
func outputLines(out *testenv.Buffer) [][]byte {
	var lines [][]byte
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	return lines
}

// stdioClient serves s over pipes and connects a client to it; the server
// stops when the test ends.
func stdioClient(t *testing.T, s *Server, opts ...mcpclient.ClientOption) (*mcpclient.Client, *testenv.Buffer) {
	t.Helper()
	seen := &testenv.Buffer{}
	clientIn, clientOut := serveStdioPipes(t, s, seen)
	c := mcpclient.NewClient(transport.NewIO(clientIn, clientOut, nil), opts...)
	initClient(t, c, clientOptions{legacy: true})
	return c, seen
}

func TestServeStdio(t *testing.T) {
	fix := newFixture()
	relay := NewRelay()
	srv := testServer(t, testHub(t, relay, inProcess("fix", fix.srv)), Options{Expose: ExposeBoth, Relay: relay})
	c, seen := stdioClient(t, srv)

	if res := callTool(t, c, "fix__echo", map[string]any{"message": "over stdio"}); resultText(res) != "echo: over stdio" {
		t.Errorf("echo = %q", resultText(res))
	}
	n := &notes{}
	c.OnNotification(n.add)
	if _, err := callWithProgress(t.Context(), c, "fix__slow", map[string]any{"steps": 2, "label": "s"}, "tok"); err != nil {
		t.Fatal(err)
	}
	for _, p := range n.of("notifications/progress") {
		if p["progressToken"] != "tok" {
			t.Errorf("progress %v under another token", p)
		}
	}

	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		_, _ = callWithProgress(ctx, c, "fix__slow", map[string]any{"steps": 100000, "label": "stdio-cancel"}, "c")
	}()
	expectLabel(t, fix.started, "s", "start")
	expectLabel(t, fix.started, "stdio-cancel", "start")
	cancel() // mcp-go sends notifications/cancelled over stdio
	expectLabel(t, fix.cancelled, "stdio-cancel", "cancellation")

	for _, line := range outputLines(seen) {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal(line, &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout carried a line that is not a JSON-RPC message: %q", line)
		}
	}
}

// serveStdioPipes serves s over pipes until the test ends, copying what it
// writes to seen when given, and returns the client's ends.
func serveStdioPipes(t *testing.T, s *Server, seen io.Writer) (io.Reader, io.WriteCloser) {
	t.Helper()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	var out io.Writer = serverOut
	if seen != nil {
		out = io.MultiWriter(serverOut, seen)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, serverIn, out) }()
	t.Cleanup(func() {
		cancel()
		clientOut.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
		serverOut.Close()
	})
	return clientIn, clientOut
}
