package bench

import (
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// DefaultProxyWarmup is how many unmeasured calls each path makes first:
// enough for node to have compiled server-everything's hot code (its echo
// answers about a fifth faster after a few thousand calls than after a
// hundred), so that every path is measured against a warm server.
const DefaultProxyWarmup = 3000

// ProxyOptions size the proxy benchmark.
type ProxyOptions struct {
	// Everything is the mcp-server-everything binary (required).
	Everything string
	// Toolhub is the toolhub binary to run as "toolhub serve" (default: this
	// executable).
	Toolhub string
	// Protocol is the version every client offers (default 2025-11-25, the
	// handshake IDE clients make); a server that does not speak it answers
	// with an older one.
	Protocol string
	Calls    int // measured echo calls per path (default 1,000)
	Warmup   int // unmeasured calls per path first (default DefaultProxyWarmup)
	// InProcessCalls and InProcessWorkers size the in-process run
	// (defaults 50,000 calls, 8 workers).
	InProcessCalls   int
	InProcessWorkers int
	// Concurrency is how many callers share each path's client in the
	// concurrent rounds (default 8; 1 leaves them out), Rounds how many
	// rounds of Calls calls per path they run (default 5).
	Concurrency int
	Rounds      int
	// CompareURL, when set, adds a fourth path: another MCP proxy's
	// Streamable HTTP endpoint in front of the same server, called as
	// CompareTool (default "echo") with CompareToken as bearer token if set.
	CompareURL   string
	CompareTool  string
	CompareToken string
	// ComparePID, when set, is the compared proxy's process: its CPU time
	// and resident memory are read as toolhub's are.
	ComparePID int
	// Settle is how long the proxies run, connected, before their idle
	// memory is read (default 3s): toolhub gives back what start-up used
	// once its servers have settled.
	Settle time.Duration
}

// PathReport is what one way of reaching the echo tool measured.
type PathReport struct {
	Name        string      `json:"name"`
	Latency     Percentiles `json:"latency"`
	CallsPerSec float64     `json:"callsPerSec"` // one client calling back to back
	// HubCPUPerCall is the toolhub process's user+system CPU time per call;
	// HubRSS its resident memory after the run. Zero for the direct path.
	HubCPUPerCall time.Duration `json:"hubCpuPerCall,omitempty"`
	HubIdleRSS    int64         `json:"hubIdleRssBytes,omitempty"` // connected and settled, before any call
	HubRSS        int64         `json:"hubRssBytes,omitempty"`
	// Compared marks the other proxy's path; its Hub* figures, when
	// ComparePID names it, are that proxy's.
	Compared bool `json:"compared,omitempty"`
	// Concurrent is the same path with several callers at once.
	Concurrent *ConcurrentReport `json:"concurrent,omitempty"`
	// P50Ratio and P99Ratio compare with the direct path.
	P50Ratio float64 `json:"p50Ratio"`
	P99Ratio float64 `json:"p99Ratio"`
}

// ProxyReport is what the proxy benchmark measured.
type ProxyReport struct {
	Calls     int             `json:"calls"`
	Paths     []PathReport    `json:"paths"`
	InProcess InProcessReport `json:"inProcess"`
}

// RunProxy calls server-everything's echo tool directly, through "toolhub
// serve" over stdio and through "toolhub serve --http", interleaving the
// three call by call so that all see the same machine load; then measures
// in-process echo throughput through the hub.
func RunProxy(ctx context.Context, opts ProxyOptions) (*ProxyReport, error) {
	opts, err := proxyDefaults(opts)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "toolhub-bench-proxy-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	config := filepath.Join(dir, "config.json")
	body := fmt.Sprintf(`{"mcpServers": {"everything": {"command": %s, "args": ["stdio"]}}}`, strconv.Quote(opts.Everything))
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		return nil, err
	}
	paths, err := startPaths(ctx, opts, config, dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, p := range paths {
			p.close()
		}
	}()
	rep := &ProxyReport{Calls: opts.Calls}
	if rep.Paths, err = measurePaths(ctx, paths, opts); err != nil {
		return nil, err
	}
	if opts.Concurrency > 1 {
		conc, err := measureConcurrent(ctx, paths, opts)
		if err != nil {
			return nil, err
		}
		for i := range rep.Paths {
			rep.Paths[i].Concurrent = &conc[i]
		}
	}
	if rep.InProcess, err = RunInProcessEcho(ctx, opts.InProcessCalls, opts.InProcessWorkers); err != nil {
		return nil, err
	}
	return rep, nil
}

func proxyDefaults(o ProxyOptions) (ProxyOptions, error) {
	if o.Everything == "" {
		return o, errors.New("proxy bench: the path of mcp-server-everything is needed")
	}
	if o.Toolhub == "" {
		exe, err := os.Executable()
		if err != nil {
			return o, fmt.Errorf("proxy bench: %w", err)
		}
		o.Toolhub = exe
	}
	switch {
	case o.Protocol == "":
		o.Protocol = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	case !mcpgo.IsValidProtocolVersion(o.Protocol):
		return o, fmt.Errorf("proxy bench: protocol %q is not one toolhub knows (%s, %s and older)",
			o.Protocol, mcpgo.ProtocolVersion20260728, mcpgo.LATEST_LEGACY_PROTOCOL_VERSION)
	}
	if o.Calls <= 0 {
		o.Calls = 1000
	}
	if o.Warmup <= 0 {
		o.Warmup = DefaultProxyWarmup
	}
	if o.Settle <= 0 {
		o.Settle = 3 * time.Second
	}
	if o.InProcessCalls <= 0 {
		o.InProcessCalls = 50_000
	}
	if o.InProcessWorkers <= 0 {
		o.InProcessWorkers = 8
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 8
	}
	if o.Rounds <= 0 {
		o.Rounds = 5
	}
	if o.CompareTool == "" {
		o.CompareTool = "echo"
	}
	if o.ComparePID != 0 {
		if o.CompareURL == "" {
			return o, errors.New("proxy bench: a compared process needs the compared proxy's URL")
		}
		if _, err := processCPU(o.ComparePID); err != nil {
			return o, fmt.Errorf("proxy bench: the compared proxy's process: %w", err)
		}
	}
	return o, nil
}

// startPaths connects the three clients, and the compared proxy's when
// there is one; the first is the direct one.
func startPaths(ctx context.Context, opts ProxyOptions, config, dir string) ([]*proxyPath, error) {
	var paths []*proxyPath
	fail := func(err error) ([]*proxyPath, error) {
		for _, p := range paths {
			p.close()
		}
		return nil, err
	}
	direct, err := startStdioPath(ctx, opts.Protocol, "direct (stdio)", "echo", opts.Everything, "stdio")
	if err != nil {
		return fail(err)
	}
	paths = append(paths, direct)
	viaStdio, err := startStdioPath(ctx, opts.Protocol, "toolhub serve (stdio)", "everything__echo",
		opts.Toolhub, "--config", config, "serve")
	if err != nil {
		return fail(err)
	}
	viaStdio.hub = true
	paths = append(paths, viaStdio)
	viaHTTP, err := startHTTPPath(ctx, opts.Protocol, "toolhub serve --http", "everything__echo", opts.Toolhub, config, dir)
	if err != nil {
		return fail(err)
	}
	paths = append(paths, viaHTTP)
	if opts.CompareURL != "" {
		other, err := connectHTTPPath(ctx, opts.Protocol, "compared (http)", opts.CompareTool, opts.CompareURL, opts.CompareToken)
		if err != nil {
			return fail(err)
		}
		other.compared, other.measured = true, opts.ComparePID
		paths = append(paths, other)
	}
	return paths, nil
}

// measurePaths interleaves the calls of every path and reports each.
func measurePaths(ctx context.Context, paths []*proxyPath, opts ProxyOptions) ([]PathReport, error) {
	select {
	case <-time.After(opts.Settle):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	idle := make([]int64, len(paths))
	for i, p := range paths {
		if pid := p.pid(); pid != 0 {
			idle[i], _ = processRSS(pid)
		}
	}
	cpuBefore := make([]time.Duration, len(paths))
	for i := 0; i < opts.Warmup+opts.Calls; i++ {
		if i == opts.Warmup {
			for k, p := range paths {
				cpuBefore[k] = cpuOf(p)
			}
		}
		for k := range paths {
			p := paths[(i+k)%len(paths)] // rotate who goes first
			d, err := p.call(ctx, "hello "+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			if i >= opts.Warmup {
				p.samples = append(p.samples, d)
			}
		}
	}
	reports := make([]PathReport, len(paths))
	for k, p := range paths {
		reports[k] = pathReport(p, cpuOf(p)-cpuBefore[k], idle[k], opts.Calls)
	}
	for k := range reports {
		reports[k].P50Ratio = ratio(reports[k].Latency.P50, reports[0].Latency.P50)
		reports[k].P99Ratio = ratio(reports[k].Latency.P99, reports[0].Latency.P99)
	}
	return reports, nil
}

func pathReport(p *proxyPath, cpu time.Duration, idleRSS int64, calls int) PathReport {
	var total time.Duration
	for _, d := range p.samples {
		total += d
	}
	r := PathReport{Name: p.name, Latency: summarize(p.samples), HubIdleRSS: idleRSS, Compared: p.compared}
	if total > 0 {
		r.CallsPerSec = float64(len(p.samples)) / total.Seconds()
	}
	if p.pid() != 0 {
		r.HubCPUPerCall = cpu / time.Duration(calls)
		r.HubRSS, _ = processRSS(p.pid())
	}
	return r
}

// cpuOf is the CPU time of a path's measured process, 0 when unknown.
func cpuOf(p *proxyPath) time.Duration {
	if p.pid() == 0 {
		return 0
	}
	cpu, _ := processCPU(p.pid())
	return cpu
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}
