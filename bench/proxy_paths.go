package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// childStopWait bounds how long a child gets to exit after SIGINT.
const childStopWait = 10 * time.Second

// proxyPath is one way of reaching server-everything's echo tool.
type proxyPath struct {
	name    string
	tool    string
	client  *mcpclient.Client
	child   *exec.Cmd // the server process the client started or talks to
	hub     bool      // child is toolhub, whose CPU and memory are measured
	samples []time.Duration
}

// call times one echo call.
func (p *proxyPath) call(ctx context.Context, message string) (time.Duration, error) {
	var req mcpgo.CallToolRequest
	req.Params.Name = p.tool
	req.Params.Arguments = map[string]any{"message": message}
	start := time.Now()
	res, err := p.client.CallTool(ctx, req)
	elapsed := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", p.name, err)
	}
	if res.IsError {
		return 0, fmt.Errorf("%s: the echo tool reported an error", p.name)
	}
	return elapsed, nil
}

// pid is the measured toolhub process, 0 for the direct path.
func (p *proxyPath) pid() int {
	if !p.hub || p.child == nil || p.child.Process == nil {
		return 0
	}
	return p.child.Process.Pid
}

func (p *proxyPath) close() {
	_ = p.client.Close()
	stopChild(p.child)
}

// startStdioPath starts command as an MCP server over stdio and connects to
// it. The child runs in its own process group.
func startStdioPath(ctx context.Context, name, tool, command string, args ...string) (*proxyPath, error) {
	p := &proxyPath{name: name, tool: tool}
	t := transport.NewStdioWithOptions(command, nil, args,
		transport.WithCommandFunc(func(_ context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
			cmd := exec.Command(command, args...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			p.child = cmd
			return cmd, nil
		}),
		transport.WithCommandStderrWriter(io.Discard))
	p.client = mcpclient.NewClient(t)
	if err := p.client.Start(ctx); err != nil {
		return nil, fmt.Errorf("%s: start: %w", name, err)
	}
	if err := initialize(ctx, p.client); err != nil {
		p.close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

var servesAt = regexp.MustCompile(`toolhub serves MCP at (http://\S+)`)

// startHTTPPath runs "toolhub serve --http" on a free loopback port with a
// token in dir, and connects to it.
func startHTTPPath(ctx context.Context, name, tool, toolhub, config, dir string) (*proxyPath, error) {
	tokenFile := filepath.Join(dir, "token")
	cmd := exec.Command(toolhub, "--config", config, "serve", "--http=127.0.0.1:0", "--token-file", tokenFile)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	url, err := awaitEndpoint(stderr)
	if err != nil {
		stopChild(cmd)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	token, err := os.ReadFile(tokenFile)
	if err != nil {
		stopChild(cmd)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c, err := mcpclient.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{
		"Authorization": "Bearer " + strings.TrimSpace(string(token)),
	}))
	if err == nil {
		err = c.Start(ctx)
	}
	p := &proxyPath{name: name, tool: tool, client: c, child: cmd, hub: true}
	if err == nil {
		err = initialize(ctx, c)
	}
	if err != nil {
		stopChild(cmd)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// awaitEndpoint reads the child's stderr until it names its endpoint, then
// keeps draining it in the background.
func awaitEndpoint(stderr io.Reader) (string, error) {
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := servesAt.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case url := <-found:
		return url, nil
	case <-time.After(time.Minute):
		return "", fmt.Errorf("toolhub serve printed no endpoint within a minute")
	}
}

// initialize performs the handshake and lists the tools once, which waits
// for toolhub's downstream servers.
func initialize(ctx context.Context, c *mcpclient.Client) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var req mcpgo.InitializeRequest
	req.Params.ClientInfo = mcpgo.Implementation{Name: "toolhub-bench", Version: "1"}
	// The handshake IDE clients make (and the only one server-everything
	// speaks), so that every path carries the same messages.
	req.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, req); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if _, err := c.ListTools(ctx, mcpgo.ListToolsRequest{}); err != nil {
		return fmt.Errorf("list tools: %w", err)
	}
	return nil
}

// stopChild interrupts a child and, if it lingers, kills its process group.
func stopChild(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = cmd.Process.Signal(os.Interrupt)
	exited := make(chan struct{})
	go func() {
		_, _ = cmd.Process.Wait()
		close(exited)
	}()
	select {
	case <-exited:
	case <-time.After(childStopWait):
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
