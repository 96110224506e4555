package hub

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

func TestLineCappedBody(t *testing.T) {
	cases := []struct {
		name     string
		body     string
		max      int64
		tooLarge bool
	}{
		{"small JSON body", `{"id":1}`, 16, false},
		{"exactly the limit", strings.Repeat("a", 16), 16, false},
		{"one byte over", strings.Repeat("a", 17), 16, true},
		{"many short event-stream lines", strings.Repeat("data: {\"x\":1}\n\n", 1000), 16, false},
		{"one long line among short ones", "data: 1\n" + strings.Repeat("b", 40) + "\ndata: 2\n", 32, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			limit := &responseLimit{max: tc.max}
			body := &lineCappedBody{body: io.NopCloser(&trickleReader{data: []byte(tc.body), step: 7}), max: tc.max, limit: limit}
			got, err := io.ReadAll(body)
			if tc.tooLarge {
				if !errors.Is(err, errResponseTooLarge) || !limit.exceeded.Load() || limit.size.Load() <= tc.max {
					t.Fatalf("want the limit flagged, got err %v, flagged %v, size %d", err, limit.exceeded.Load(), limit.size.Load())
				}
				return
			}
			if err != nil || string(got) != tc.body || limit.exceeded.Load() {
				t.Fatalf("body altered: %d bytes, %v", len(got), err)
			}
		})
	}
}

// trickleReader returns at most step bytes per Read.
type trickleReader struct {
	data []byte
	step int
}

func (r *trickleReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.step)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestStoppedRemoteServerLeavesNoConnectionOpen: a remote server's
// connection, idle keep-alive ones included, closes when the hub stops
// talking to it, not when the transport's idle timeout (90 s) ends it.
func TestStoppedRemoteServerLeavesNoConnectionOpen(t *testing.T) {
	var mu sync.Mutex
	open := map[net.Conn]bool{}
	ts := httptest.NewUnstartedServer(mcpserver.NewStreamableHTTPServer(mcpserver.NewMCPServer("remote", "1")))
	ts.Config.ConnState = func(c net.Conn, st http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		switch st {
		case http.StateNew:
			open[c] = true
		case http.StateClosed, http.StateHijacked:
			delete(open, c)
		}
	}
	ts.Start()
	t.Cleanup(ts.Close)
	openConns := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(open)
	}

	d := runDownstream(t, ServerSpec{Name: "remote", Transport: TransportHTTP, URL: ts.URL + "/mcp"}, testOptions())
	d.waitState(t, StateReady)
	if openConns() == 0 {
		t.Fatal("no connection to the server while it is ready")
	}
	d.stop(t)
	waitUntil(t, "the connections to the stopped server closed", func() bool { return openConns() == 0 },
		func() string { return fmt.Sprintf("%d still open", openConns()) })
}
