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
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/internal/proc"
)

// childStopWait bounds how long a child's tree gets to exit after the
// graceful stop.
const childStopWait = 10 * time.Second

// proxyPath is one way of reaching server-everything's echo tool.
type proxyPath struct {
	name   string
	tool   string
	client *mcpclient.Client
	child  *exec.Cmd   // the server process the client talks to
	group  *proc.Group // child's process tree
	hub    bool        // child is toolhub, whose CPU and memory are measured
	// compared marks the other proxy's path; measured is its process, when
	// known, whose CPU and memory are measured as toolhub's are.
	compared bool
	measured int
	samples  []time.Duration
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

// pid is the measured process: toolhub, or the compared proxy when its
// process is known; 0 otherwise.
func (p *proxyPath) pid() int {
	if p.measured != 0 {
		return p.measured
	}
	if !p.hub || p.child == nil || p.child.Process == nil {
		return 0
	}
	return p.child.Process.Pid
}

func (p *proxyPath) close() {
	_ = p.client.Close()
	stopChild(p.child, p.group)
}

// startStdioPath starts command as an MCP server over stdio, as its own
// process tree, and connects to it.
func startStdioPath(ctx context.Context, protocol, name, tool, command string, args ...string) (*proxyPath, error) {
	cmd := exec.Command(command, args...)
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	group, err := proc.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("%s: start: %w", name, err)
	}
	p := &proxyPath{name: name, tool: tool, child: cmd, group: group}
	p.client = mcpclient.NewClient(transport.NewIO(stdout, stdin, nil))
	if err := p.client.Start(ctx); err != nil {
		p.close()
		return nil, fmt.Errorf("%s: start: %w", name, err)
	}
	if err := initialize(ctx, p.client, protocol); err != nil {
		p.close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

var servesAt = regexp.MustCompile(`toolhub serves MCP at (http://\S+)`)

// startHTTPPath runs "toolhub serve --http" on a free loopback port with a
// token in dir, and connects to it.
func startHTTPPath(ctx context.Context, protocol, name, tool, toolhub, config, dir string) (*proxyPath, error) {
	tokenFile := filepath.Join(dir, "token")
	cmd := exec.Command(toolhub, "--config", config, "serve", "--http=127.0.0.1:0", "--token-file", tokenFile)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	group, err := proc.Start(cmd)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	url, err := awaitEndpoint(stderr)
	if err != nil {
		stopChild(cmd, group)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	token, err := os.ReadFile(tokenFile)
	if err != nil {
		stopChild(cmd, group)
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p, err := connectHTTPPath(ctx, protocol, name, tool, url, strings.TrimSpace(string(token)))
	if err != nil {
		stopChild(cmd, group)
		return nil, err
	}
	p.child, p.group, p.hub = cmd, group, true
	return p, nil
}

// connectHTTPPath connects to a Streamable HTTP endpoint that is already
// serving, with token as bearer token unless it is empty.
func connectHTTPPath(ctx context.Context, protocol, name, tool, url, token string) (*proxyPath, error) {
	headers := map[string]string{}
	if token != "" {
		headers["Authorization"] = "Bearer " + token
	}
	c, err := mcpclient.NewStreamableHttpClient(url, transport.WithHTTPHeaders(headers))
	if err == nil {
		err = c.Start(ctx)
	}
	if err == nil {
		err = initialize(ctx, c, protocol)
	}
	if err != nil {
		if c != nil {
			_ = c.Close()
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &proxyPath{name: name, tool: tool, client: c}, nil
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

// initialize performs the handshake, offering protocol, and lists the tools
// once, which waits for toolhub's downstream servers. A server that does
// not speak protocol (server-everything, most proxies, for 2026-07-28)
// answers with an older one, which the client then speaks.
func initialize(ctx context.Context, c *mcpclient.Client, protocol string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var req mcpgo.InitializeRequest
	req.Params.ClientInfo = mcpgo.Implementation{Name: "toolhub-bench", Version: "1"}
	req.Params.ProtocolVersion = protocol
	if _, err := c.Initialize(ctx, req); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if _, err := c.ListTools(ctx, mcpgo.ListToolsRequest{}); err != nil {
		return fmt.Errorf("list tools: %w", err)
	}
	return nil
}

// stopChild ends a child's process tree: the graceful stop (SIGTERM, or
// CTRL_BREAK on Windows), then a kill once childStopWait has passed.
func stopChild(cmd *exec.Cmd, group *proc.Group) {
	if cmd == nil || group == nil {
		return
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	proc.Stop(group, exited, proc.StopOptions{Grace: childStopWait})
	_ = group.Release()
}
