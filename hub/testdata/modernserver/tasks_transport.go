package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"sync"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// wrap serves the extension's requests over Streamable HTTP and passes
// every other on.
func (l *taskLayer) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req rpc
		if r.Method == http.MethodPost && json.Unmarshal(body, &req) == nil {
			if status, key, value, ok := l.answer(&req, r.Header.Get("Mcp-Name"), true); ok {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				_, _ = w.Write(message(req.ID, key, value))
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// serveStdio serves over stdio: the extension's requests are answered
// here, every other line goes on to mcp-go, and both write whole lines to
// stdout under one lock.
func (l *taskLayer) serveStdio(srv *mcpserver.MCPServer) error {
	out := &lockedWriter{w: os.Stdout}
	in, feed := io.Pipe()
	go func() {
		defer feed.Close()
		lines := bufio.NewScanner(os.Stdin)
		lines.Buffer(make([]byte, 0, 64*1024), 16<<20)
		for lines.Scan() {
			line := lines.Bytes()
			var req rpc
			if json.Unmarshal(line, &req) == nil && len(req.ID) > 0 {
				if _, key, value, ok := l.answer(&req, "", false); ok {
					_, _ = out.Write(append(message(req.ID, key, value), '\n'))
					continue
				}
			}
			if _, err := feed.Write(append(bytes.Clone(line), '\n')); err != nil {
				return
			}
		}
	}()
	return mcpserver.NewStdioServer(srv).Listen(context.Background(), in, out)
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}
