package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// FuzzStdioMessages feeds arbitrary lines to a stdio connection: none may
// crash it, and everything it writes back is one JSON-RPC message a line.
func FuzzStdioMessages(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"srv__work","arguments":{"a":1}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"srv__work","arguments":{},"_meta":{"progressToken":"p"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"find_tools","arguments":{"query":"work"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":4,"result":{}}`,
		`{"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"id":[1],"method":7}`,
		`[{"jsonrpc":"2.0"}]`,
		`not json`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"srv__work","arguments":[1,2]}}`,
	} {
		f.Add([]byte(seed))
	}
	fake := newFakeCatalog()
	fake.fail(errors.New("the fake server is down"))
	srv := testServer(f, fake, Options{MaxMessageBytes: 1 << 16})
	f.Fuzz(func(t *testing.T, line []byte) {
		out := &testenv.Buffer{}
		c := newStdioConn(srv, out, 1<<16)
		ctx := srv.mcp.WithContext(context.Background(), c.session)
		if bytes.ContainsRune(line, '\n') || len(bytes.TrimSpace(line)) == 0 {
			return // the read loop splits lines and skips blank ones
		}
		c.dispatch(ctx, line) // no workers wait: every request gets its own goroutine
		c.spawned.Wait()
		for _, written := range outputLines(out) {
			var msg struct {
				JSONRPC string `json:"jsonrpc"`
			}
			if err := json.Unmarshal(written, &msg); err != nil || msg.JSONRPC != "2.0" {
				t.Fatalf("for %q the server wrote %q", line, written)
			}
		}
	})
}
