package hub

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// scriptedLines serves fixed lines, then the end of the stream.
type scriptedLines struct{ lines chan []byte }

func (s scriptedLines) NextMessage() ([]byte, error) {
	line, ok := <-s.lines
	if !ok {
		return nil, io.EOF
	}
	return line, nil
}

type discardCloser struct{ io.Writer }

func (discardCloser) Close() error { return nil }

// FuzzStdioTransportRoute routes arbitrary server lines: none may crash
// the transport, and a response only ever reaches the request it names.
func FuzzStdioTransportRoute(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":"toolhub-1","result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no"}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}`,
		`{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"messages":[]}}`,
		`{"jsonrpc":"2.0","id":null,"result":{}}`,
		`{"id":{"a":1},"method":5}`,
		`[1,2]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		tr := newStdioTransport(scriptedLines{}, discardCloser{io.Discard}, testOptions().Logger)
		tr.SetNotificationHandler(func(mcpgo.JSONRPCNotification) {})
		tr.SetRequestHandler(func(context.Context, transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
			return nil, nil
		})
		waiting := make(chan *transport.JSONRPCResponse, 1)
		tr.pending[mcpgo.NewRequestId("toolhub-1").String()] = waiting
		tr.route(line)
		select {
		case resp := <-waiting:
			if resp.ID.String() != mcpgo.NewRequestId("toolhub-1").String() {
				t.Fatalf("%q answered toolhub-1 with id %v", line, resp.ID)
			}
		default:
		}
	})
}

func TestStdioTransportEndsWaitingRequestsWhenTheStreamEnds(t *testing.T) {
	lines := make(chan []byte)
	tr := newStdioTransport(scriptedLines{lines}, discardCloser{io.Discard}, testOptions().Logger)
	if err := tr.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := tr.SendRequest(t.Context(), transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcpgo.NewRequestId("toolhub-9"), Method: "ping"})
		done <- err
	}()
	answer, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "other", "result": map[string]any{}})
	lines <- answer // a response to a request nobody made is dropped
	close(lines)
	select {
	case err := <-done:
		if !errors.Is(err, transport.ErrTransportClosed) {
			t.Errorf("request after the stream ended: %v, want ErrTransportClosed", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("a request outlived the stream")
	}
}
