package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
)

// lockedBuffer records what the server writes to its stdout.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) lines() [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b.buf.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		out = append(out, append([]byte(nil), sc.Bytes()...))
	}
	return out
}

// stdioClient serves s over pipes and connects a client to it; the server
// stops when the test ends.
func stdioClient(t *testing.T, s *Server, opts ...mcpclient.ClientOption) (*mcpclient.Client, *lockedBuffer) {
	t.Helper()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	seen := &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, serverIn, io.MultiWriter(serverOut, seen)) }()
	t.Cleanup(func() {
		cancel()
		clientOut.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
		serverOut.Close()
	})
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

	for _, line := range seen.lines() {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal(line, &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout carried a line that is not a JSON-RPC message: %q", line)
		}
	}
}
