package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/internal/testenv"
)

// serveWait bounds every wait in the serve tests.
const serveWait = 60 * time.Second

// syncBuffer is a bytes.Buffer safe to read while the command writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// runCLI is Main with the serve command present whether or not the root
// command registers it yet.
func runCLI(ctx context.Context, args []string, stdio Stdio) int {
	g := &globals{stdio: stdio}
	root := newRootCommand(g)
	if c, _, err := root.Find([]string{"serve"}); err != nil || c == root {
		serve := newServeCommand(g)
		wrapArgs(serve)
		root.AddCommand(serve)
	}
	root.SetArgs(append([]string{}, args...)) // nil would read os.Args
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	err := root.ExecuteContext(ctx)
	if err != nil && !errors.Is(err, errToolFailure) {
		fmt.Fprintln(stdio.Err, "toolhub: "+err.Error())
	}
	return exitCode(err)
}

// writeConfig writes a config file listing servers (a JSON object body).
func writeConfig(t *testing.T, servers string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers": {`+servers+`}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestServeRejectsBadFlags(t *testing.T) {
	cfg := writeConfig(t, "")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown exposure", []string{"--expose", "all"}, "--expose"},
		{"no-auth without http", []string{"--no-auth"}, "--no-auth applies only with --http"},
		{"allow-origin without http", []string{"--allow-origin", "https://x.test"}, "--allow-origin applies only with --http"},
		{"no-auth and a token file", []string{"--http", "--no-auth", "--token-file", "x"}, "either --no-auth or --token-file"},
		{"no-auth on all interfaces", []string{"--http=0.0.0.0:0", "--no-auth"}, "without authentication"},
		{"zero body cap", []string{"--max-body", "0"}, "must be positive"},
		{"positional argument", []string{"extra"}, "unknown command"},
		{"address after a space", []string{"--http", "127.0.0.1:9000"}, `--http takes its address after "=": --http=127.0.0.1:9000`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut syncBuffer
			ctx, cancel := context.WithTimeout(t.Context(), serveWait)
			defer cancel()
			args := append([]string{"--config", cfg, "serve"}, tt.args...)
			code := runCLI(ctx, args, Stdio{In: strings.NewReader(""), Out: &out, Err: &errOut})
			if code != exitUsage || !strings.Contains(errOut.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut.String(), exitUsage, tt.want)
			}
			if out.String() != "" {
				t.Errorf("stdout = %q, want nothing", out.String())
			}
		})
	}
}

// serveStdio runs "toolhub serve" over pipes and returns a client connected
// to it, the record of its stdout and the exit status channel.
func serveStdio(t *testing.T, cfg string, extra ...string) (*mcpclient.Client, *syncBuffer, <-chan int) {
	t.Helper()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithTimeout(context.Background(), serveWait)
	done := make(chan int, 1)
	go func() {
		args := append([]string{"--config", cfg, "serve"}, extra...)
		done <- runCLI(ctx, args, Stdio{In: serverIn, Out: io.MultiWriter(serverOut, stdout), Err: stderr})
		serverOut.Close()
	}()
	t.Cleanup(func() {
		cancel()
		clientOut.Close()
		if t.Failed() {
			t.Logf("stderr of toolhub serve:\n%s", stderr.String())
		}
	})
	c := mcpclient.NewClient(transport.NewIO(clientIn, clientOut, nil))
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var req mcpgo.InitializeRequest
	req.Params.ClientInfo = mcpgo.Implementation{Name: "serve-test", Version: "1"}
	req.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = clientOut.Close() })
	return c, stdout, done
}

func toolNames(t *testing.T, c *mcpclient.Client) []string {
	t.Helper()
	res, err := c.ListTools(t.Context(), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

func TestServeStdioWithoutServers(t *testing.T) {
	c, stdout, done := serveStdio(t, writeConfig(t, ""), "--expose", "search")
	if got := toolNames(t, c); !slices.Equal(got, []string{"call_tool", "describe_tool", "find_tools", "orchestrate", "research"}) {
		t.Errorf("tools = %v", got)
	}
	_ = c.Close() // closes toolhub's stdin: serve must end cleanly
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit status %d after the client left", code)
		}
	case <-time.After(serveWait):
		t.Fatal("serve did not stop when stdin closed")
	}
	assertProtocolOnly(t, stdout)
}

// assertProtocolOnly fails the test if stdout held anything but JSON-RPC
// messages, one per line.
func assertProtocolOnly(t *testing.T, stdout *syncBuffer) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		if !json.Valid([]byte(line)) || !strings.Contains(line, `"jsonrpc":"2.0"`) {
			t.Errorf("stdout carried a line that is not protocol: %q", line)
		}
	}
}

func TestServeStdioForwardsToEverything(t *testing.T) {
	bin := testenv.NPMBin(t, "mcp-server-everything")
	c, stdout, _ := serveStdio(t, writeConfig(t, fmt.Sprintf(`"everything": {"command": %q, "args": ["stdio"]}`, bin)),
		"--log-level", "debug")
	names := toolNames(t, c)
	if !slices.Contains(names, "everything__get-sum") || !slices.Contains(names, "find_tools") {
		t.Fatalf("tools = %v; the first list must wait for the server", names)
	}
	var req mcpgo.CallToolRequest
	req.Params.Name = "everything__get-sum"
	req.Params.Arguments = map[string]any{"a": 2, "b": 3}
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := mcpgo.AsTextContent(res.Content[0]); !ok || !strings.Contains(tc.Text, "5") {
		t.Errorf("get-sum result = %#v", res.Content)
	}
	assertProtocolOnly(t, stdout) // even with every log line enabled
}

var endpointLine = regexp.MustCompile(`toolhub serves MCP at (http://\S+)`)

func TestServeHTTP(t *testing.T) {
	tokenFile := filepath.Join(t.TempDir(), "secrets", "token")
	stderr := &syncBuffer{}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan int, 1)
	go func() {
		args := []string{"--config", writeConfig(t, ""), "serve", "--http=127.0.0.1:0", "--token-file", tokenFile}
		done <- runCLI(ctx, args, Stdio{In: strings.NewReader(""), Out: io.Discard, Err: stderr})
	}()
	var url string
	deadline := time.Now().Add(serveWait)
	for url == "" {
		if m := endpointLine.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("no endpoint printed; stderr:\n%s", stderr.String())
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	data, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimSpace(string(data))
	banner := stderr.String()
	for _, want := range []string{tokenFile, catCommand(runtime.GOOS, tokenFile), `"servers"`, `"mcpServers"`, `"command"`,
		`"serve"`, "claude mcp add --transport http toolhub " + url} {
		if !strings.Contains(banner, want) {
			t.Errorf("banner lacks %q:\n%s", want, banner)
		}
	}
	if strings.Contains(banner, token) {
		t.Errorf("banner prints the token:\n%s", banner)
	}

	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without a token: %s, want 401", resp.Status)
	}
	c, err := mcpclient.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Initialize(ctx, mcpgo.InitializeRequest{}); err != nil {
		t.Fatal(err)
	}
	// No servers are configured: find_tools and the built-in tools (python
	// where this machine can run it sandboxed or limited).
	want := []string{"find_tools", "index_documents", "orchestrate", "research", "search_documents"}
	got := slices.DeleteFunc(toolNames(t, c), func(n string) bool { return n == "python" })
	if !slices.Equal(got, want) {
		t.Errorf("tools = %v, want %v (and python where available)", got, want)
	}
	_ = c.Close()

	cancel() // SIGINT
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit status %d after shutdown; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(serveWait):
		t.Fatal("serve did not stop when its context ended")
	}
}
