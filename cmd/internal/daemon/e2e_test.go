package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/testenv"
)

// fourServers is mcp-notes §7.8: every reference server behind one hub.
func fourServers(t *testing.T) string {
	t.Helper()
	everything := testenv.NPMBin(t, "mcp-server-everything")
	fsBin := testenv.NPMBin(t, "mcp-server-filesystem")
	memory := testenv.NPMBin(t, "mcp-server-memory")
	httpURL := testenv.StartEverythingHTTP(t)
	dir := t.TempDir()
	files := filepath.Join(dir, "files")
	if err := os.MkdirAll(files, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(files, "hello.txt"), []byte("hello from the hub"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`{
  // all four reference servers behind one hub
  "mcpServers": {
    "everything":      {"command": %q, "args": ["stdio"]},
    "everything_http": {"type": "http", "url": %q},
    "fs":              {"command": %q, "args": [%q]},
    "memory":          {"command": %q, "env": {"MEMORY_FILE_PATH": %q}}
  }
}`, everything, httpURL, fsBin, files, memory, filepath.Join(dir, "memory.jsonl"))
	path := filepath.Join(dir, "config.json")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func startDaemon(t *testing.T, cfgPath string) *daemon.Daemon {
	t.Helper()
	cfg, err := config.Load(cfgPath, "flag")
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.Start(ctx)
	t.Cleanup(func() {
		cancel()
		_ = d.Close()
	})
	waitCtx, stop := context.WithTimeout(ctx, 90*time.Second)
	defer stop()
	if err := d.Hub().WaitSettled(waitCtx); err != nil {
		t.Fatalf("servers did not settle: %v (%+v)", err, d.Hub().Servers())
	}
	return d
}

func TestFourReferenceServersBehindOneHub(t *testing.T) {
	d := startDaemon(t, fourServers(t))
	for _, st := range d.Hub().Servers() {
		if st.State != hub.StateReady || st.Tools == 0 {
			t.Errorf("server %s: state %s with %d tools (%s)", st.Name, st.State, st.Tools, st.LastError)
		}
	}
	cases := []struct {
		name, tool, args, want string
	}{
		{"sum over stdio", "everything__get-sum", `{"a":2,"b":3}`, "5"},
		{"sum over http", "everything_http__get-sum", `{"a":40,"b":2}`, "42"},
		{"filesystem read", "fs__list_allowed_directories", `{}`, "files"},
		{"memory write", "memory__create_entities",
			`{"entities":[{"name":"toolhub","entityType":"project","observations":["MCP hub"]}]}`, "toolhub"},
		{"memory read back", "memory__search_nodes", `{"query":"toolhub"}`, "MCP hub"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := d.Hub().Call(ctx, tc.tool, json.RawMessage(tc.args), hub.CallOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError || !strings.Contains(string(res.Raw), tc.want) {
				t.Fatalf("result %s: want it to contain %q without isError", res.Raw, tc.want)
			}
		})
	}
}

func TestConcurrentCallsAcrossThreeServers(t *testing.T) {
	d := startDaemon(t, fourServers(t))
	calls := []struct{ tool, args, want string }{
		{"everything__get-sum", `{"a":%d,"b":1}`, ""},
		{"fs__list_allowed_directories", `{}`, "files"},
		{"memory__read_graph", `{}`, "entities"},
	}
	const total = 200
	var wg sync.WaitGroup
	errs := make(chan error, total)
	for i := 0; i < total; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := calls[i%len(calls)]
			args, want := c.args, c.want
			if strings.Contains(args, "%d") {
				args = fmt.Sprintf(args, i)
				want = fmt.Sprint(i + 1)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := d.Hub().Call(ctx, c.tool, json.RawMessage(args), hub.CallOptions{})
			switch {
			case err != nil:
				errs <- fmt.Errorf("call %d %s: %w", i, c.tool, err)
			case res.IsError || !strings.Contains(string(res.Raw), want):
				errs <- fmt.Errorf("call %d %s: result %s lacks %q", i, c.tool, res.Raw, want)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var counted int64
	for _, tool := range d.Hub().Snapshot().Tools() {
		counted += tool.Stats.View().Calls
	}
	if counted != total {
		t.Errorf("the catalog's stats count %d calls, want %d", counted, total)
	}
}
