package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/testenv"
)

// TestEverythingProgressAndCancellation drives server-everything's
// trigger-long-running-operation through toolhub: its progress reaches the
// client under the client's own token, and cancelling the call sends
// notifications/cancelled to server-everything, seen on a copy of its stdin.
func TestEverythingProgressAndCancellation(t *testing.T) {
	everything := testenv.NPMBin(t, "mcp-server-everything")
	stdinCopy := filepath.Join(t.TempDir(), "stdin.jsonl")
	relay := NewRelay()
	h := testHub(t, relay, hub.ServerSpec{
		Name: "everything", Transport: hub.TransportStdio, Command: "/bin/sh",
		Args:     []string{"-c", `tee -a "$0" | "$1" stdio`, stdinCopy, everything},
		Locality: hub.LocalityLocal,
	})
	srv := testServer(t, h, Options{Expose: ExposeDirect, Relay: relay})
	n := &notes{}
	c := connectHTTP(t, serveHTTP(t, srv, HTTPOptions{Token: testToken}).URL(),
		clientOptions{token: testToken, legacy: true, onNote: n.add})

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := callWithProgress(ctx, c, "everything__trigger-long-running-operation",
			map[string]any{"duration": 60, "steps": 120}, "client-token")
		done <- err
	}()
	waitFor(t, "progress from server-everything", func() bool { return len(n.of("notifications/progress")) > 0 })
	for _, p := range n.of("notifications/progress") {
		if p["progressToken"] != "client-token" {
			t.Errorf("progress under token %v, want the client's", p["progressToken"])
		}
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("the cancelled call returned a result")
	}
	waitFor(t, "notifications/cancelled on server-everything's stdin", func() bool {
		data, _ := os.ReadFile(stdinCopy)
		return strings.Contains(string(data), `"notifications/cancelled"`)
	})
}
