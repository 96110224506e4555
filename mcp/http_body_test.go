package mcp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// newPacedStack is newStack with the endpoint's body limits set by opts.
func newPacedStack(t *testing.T, opts HTTPOptions) *stack {
	t.Helper()
	fix := newFixture()
	relay := NewRelay()
	h := testHub(t, relay, inProcess("fix", fix.srv))
	srv := testServer(t, h, Options{Relay: relay})
	opts.Token = testToken
	return &stack{fix: fix, server: srv, http: serveHTTP(t, srv, opts)}
}

// rawConn is a TCP connection to the endpoint that writes a request's
// headers and as much of its body as a test wants, then reads the answer.
type rawConn struct {
	t    *testing.T
	conn net.Conn
	br   *bufio.Reader
}

func dialRaw(t *testing.T, endpoint string) *rawConn {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	// Only a guard against hanging: every answer these tests wait for is
	// due long before.
	if err := conn.SetDeadline(time.Now().Add(waitLimit)); err != nil {
		t.Fatal(err)
	}
	return &rawConn{t: t, conn: conn, br: bufio.NewReader(conn)}
}

// start writes the headers of a request announcing a body of length bytes,
// and the first bytes of that body.
func (c *rawConn) start(method, path string, headers map[string]string, length int, first string) {
	c.t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: %d\r\n", method, path, length)
	for k, v := range headers {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	b.WriteString("\r\n" + first)
	if _, err := io.WriteString(c.conn, b.String()); err != nil {
		c.t.Fatal(err)
	}
}

// answer reads the response and its body.
func (c *rawConn) answer() (*http.Response, string) {
	c.t.Helper()
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		c.t.Fatalf("no answer while the body is incomplete: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		c.t.Fatalf("reading the answer: %v", err)
	}
	return resp, string(body)
}

// assertClosed fails unless the server closes the connection: the read ends
// with EOF or a reset, not with the test's own guard deadline.
func (c *rawConn) assertClosed() {
	c.t.Helper()
	n, err := c.br.Read(make([]byte, 1))
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		c.t.Fatal("the server left the connection open")
	case err == nil:
		c.t.Fatalf("the server sent %d more bytes instead of closing", n)
	}
}

func TestHTTPRefusesBeforeTheBody(t *testing.T) {
	// The body may take an hour here: an answer that waited for it would
	// never come within the test's guard.
	st := newPacedStack(t, HTTPOptions{BodyRateGrace: time.Hour, BodyReadTimeout: time.Hour})
	u, err := url.Parse(st.http.URL())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		method     string
		headers    map[string]string
		wantStatus int
	}{
		{"no token", http.MethodPost, nil, http.StatusUnauthorized},
		{"wrong token", http.MethodPost, map[string]string{"Authorization": "Bearer not-the-token-0123456789"}, http.StatusUnauthorized},
		{"foreign origin", http.MethodPost, map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"method not allowed", http.MethodPut, map[string]string{"Authorization": "Bearer " + testToken}, http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialRaw(t, st.http.URL())
			c.start(tt.method, u.Path, tt.headers, 1000, `{"jsonrpc":"2.0",`)
			resp, body := c.answer()
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status = %s, want %d; %s", resp.Status, tt.wantStatus, body)
			}
			if !resp.Close {
				t.Error("the connection is kept open for the rest of a body nobody reads")
			}
		})
	}
}

func TestHTTPCutsSlowBodies(t *testing.T) {
	tests := []struct {
		name string
		opts HTTPOptions
		drip bool // send one byte after another instead of stalling
	}{
		{"stalls under the rate", HTTPOptions{BodyRateGrace: 20 * time.Millisecond, MinBodyRate: 1 << 20, BodyReadTimeout: time.Hour}, false},
		{"drips under the rate", HTTPOptions{BodyRateGrace: 20 * time.Millisecond, MinBodyRate: 1 << 20, BodyReadTimeout: time.Hour}, true},
		{"stalls past the whole-body timeout", HTTPOptions{BodyRateGrace: time.Hour, MinBodyRate: 1, BodyReadTimeout: 50 * time.Millisecond}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newPacedStack(t, tt.opts)
			u, err := url.Parse(st.http.URL())
			if err != nil {
				t.Fatal(err)
			}
			c := dialRaw(t, st.http.URL())
			c.start(http.MethodPost, u.Path, map[string]string{"Authorization": "Bearer " + testToken}, 1000, `{"jsonrpc":"2.0",`)
			if tt.drip {
				go c.drip()
			}
			resp, body := c.answer()
			if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(body, "too slow") {
				t.Fatalf("status = %s, want 408; %s", resp.Status, body)
			}
			c.assertClosed()
		})
	}
}

// drip writes a byte of padding every few milliseconds until the server
// stops taking them.
func (c *rawConn) drip() {
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		if _, err := c.conn.Write([]byte(" ")); err != nil {
			return
		}
	}
}

func TestHTTPBodyLimitsSpareAnswers(t *testing.T) {
	// Far shorter limits than the call takes: only reading the request is
	// limited, not the streamed answer nor the event stream.
	st := newPacedStack(t, HTTPOptions{BodyRateGrace: 5 * time.Millisecond, MinBodyRate: 1 << 20,
		BodyReadTimeout: 20 * time.Millisecond})
	n := &notes{}
	c := st.client(t, clientOptions{legacy: true, listen: true, onNote: n.add})
	ctx := t.Context()
	res, err := callWithProgress(ctx, c, "fix__slow", map[string]any{"steps": 4, "delay_ms": 40, "label": "long"}, "p1")
	if err != nil {
		t.Fatalf("a call longer than the body limits: %v", err)
	}
	if got := resultText(res); got != "long done" {
		t.Fatalf("result %q", got)
	}
	if len(n.of("notifications/progress")) != 4 {
		t.Errorf("progress = %v", n.of("notifications/progress"))
	}
	// The event stream, open since before the call, still delivers.
	before := len(n.of("notifications/tools/list_changed"))
	st.fix.srv.AddTool(mcpgo.NewTool("added", mcpgo.WithDescription("A tool added while running.")), st.fix.echo)
	waitFor(t, "tools/list_changed on the event stream", func() bool {
		return len(n.of("notifications/tools/list_changed")) > before
	})
}

func TestBodyPaceDeadline(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := bodyPace{timeout: time.Minute, grace: 10 * time.Second, minRate: 1024}
	tests := []struct {
		name string
		n    int64
		want time.Duration
	}{
		{"nothing yet: the grace", 0, 10 * time.Second},
		{"1 KiB buys a second", 1024, 11 * time.Second},
		{"half a KiB half a second", 512, 10*time.Second + 500*time.Millisecond},
		{"capped by the timeout", 1 << 20, time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.deadline(start, tt.n).Sub(start); got != tt.want {
				t.Errorf("deadline after %d bytes = %s, want %s", tt.n, got, tt.want)
			}
		})
	}
}
