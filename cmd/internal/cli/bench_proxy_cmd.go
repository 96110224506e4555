package cli

import (
	"time"

	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/bench"
	"github.com/toolhub/toolhub/conductor"
)

// Targets the proxy benchmark reports against.
const (
	targetInProcessCallsPerSec = 5000
	targetIdleRSSMiB           = 20
)

func newBenchProxyCommand(g *globals) *cobra.Command {
	var opts bench.ProxyOptions
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "proxy",
		Short: "Compare calling a tool directly with calling it through toolhub",
		Long: `Calls server-everything's echo tool three ways, interleaved call by call: an
MCP client talking to server-everything over stdio, the same through
"toolhub serve" (stdio, started as a child) and through "toolhub serve --http".
Every client makes the protocol 2025-11-25 handshake, as IDE clients do;
--protocol 2026-07-28 has them offer that version instead, which toolhub's
paths speak (the direct path and most other proxies answer with
2025-11-25).
Reports p50/p99 latency, calls/s, the proxy's CPU time per call and its
resident memory (from /proc on Linux, ps on macOS and the BSDs, the process
API on Windows), idle (connected, --settle after start) and after the run,
with the
ratios to the direct path. Then every path takes --rounds rounds of --calls
calls from --concurrency callers at once on its client (rotating which path
goes first), reported as p50/p99, the median calls/s of the rounds, and
the CPU time per call of the proxy and of the bench's own MCP client: on a
machine with few cores the client competes with the proxy for them, and
mcp-go's client spends more per call speaking 2026-07-28 than 2025-11-25.
--compare-url adds another MCP proxy's Streamable HTTP endpoint, in front of
the same server, to every run; --compare-pid names that proxy's process, so
that its CPU time and memory are read as toolhub's are. Last, an in-process
echo through the hub with concurrent callers (target ≥ 5,000 calls/s).

Each path first makes --warmup unmeasured calls. Node compiles
server-everything's hot code only after some thousands of calls: a proxy
that has been running for a while (--compare-url) has a warm one, and the
paths started here need as many calls to catch up before their figures can
be set against its.

server-everything is looked up in .tools/node_modules/.bin above the current
directory unless --everything names it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := intsAtLeast(cmd, 1, "calls", "inprocess-workers", "concurrency"); err != nil {
				return err
			}
			if err := intsAtLeast(cmd, 0, "warmup", "inprocess-calls", "rounds", "compare-pid"); err != nil {
				return err
			}
			path, err := everythingPath(opts.Everything, "")
			if err != nil {
				return err
			}
			opts.Everything = path
			rep, err := bench.RunProxy(cmd.Context(), opts)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.stdio.Out, rep)
			}
			printProxyReport(g.stdio.Out, rep)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Everything, "everything", "", "path of mcp-server-everything")
	f.StringVar(&opts.Toolhub, "toolhub", "", "toolhub binary run as toolhub serve, to measure another build (default: this one)")
	f.StringVar(&opts.Protocol, "protocol", "2025-11-25", "protocol version every client offers (2026-07-28: toolhub's paths speak it, servers that do not answer with an older one)")
	f.IntVar(&opts.Calls, "calls", 1000, "measured calls per path")
	f.IntVar(&opts.Warmup, "warmup", bench.DefaultProxyWarmup, "unmeasured calls per path first")
	f.IntVar(&opts.InProcessCalls, "inprocess-calls", 50_000, "calls in the in-process run")
	f.IntVar(&opts.InProcessWorkers, "inprocess-workers", 8, "concurrent callers in the in-process run")
	f.IntVar(&opts.Concurrency, "concurrency", 8, "callers at once in the concurrent rounds (1 leaves them out)")
	f.IntVar(&opts.Rounds, "rounds", 5, "concurrent rounds")
	f.StringVar(&opts.CompareURL, "compare-url", "", "Streamable HTTP endpoint of another proxy in front of server-everything, measured alongside")
	f.StringVar(&opts.CompareTool, "compare-tool", "echo", "the echo tool's name at --compare-url")
	f.StringVar(&opts.CompareToken, "compare-token", "", "bearer token for --compare-url")
	f.DurationVar(&opts.Settle, "settle", 3*time.Second, "how long the proxies run, connected, before their idle memory is read")
	f.IntVar(&opts.ComparePID, "compare-pid", 0, "process id of the proxy at --compare-url, whose CPU time and memory are then measured too")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// everythingPath is the mcp-server-everything program the benchmarks
// serve: the one --everything names, refused when there is no file there,
// else the one findEverything finds; orElse ends the error that none was
// found.
func everythingPath(named, orElse string) (string, error) {
	if named != "" {
		return named, needFile(named, "--everything", "the mcp-server-everything program")
	}
	path, err := findEverything()
	if err != nil {
		return "", usageError("%v%s", err, orElse)
	}
	return path, nil
}

// findEverything looks for .tools/node_modules/.bin/mcp-server-everything in
// the current directory and its parents.
func findEverything() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, ".tools", "node_modules", ".bin", "mcp-server-everything")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("mcp-server-everything not found under .tools: run scripts/install-tools.sh or pass --everything")
		}
		dir = parent
	}
}

func printProxyReport(w io.Writer, rep *bench.ProxyReport) {
	fmt.Fprintf(w, "echo through toolhub: %s per path, interleaved\n", conductor.Count(rep.Calls, "call"))
	t := newTable(w, "PATH", "P50", "P99", "CALLS/S", "PROXY CPU/CALL", "PROXY RSS IDLE", "PROXY RSS AFTER", "P50 ×", "P99 ×")
	for _, p := range rep.Paths {
		t.row(p.Name, humanDuration(p.Latency.P50), humanDuration(p.Latency.P99), fmt.Sprintf("%.0f", p.CallsPerSec),
			humanDuration(p.HubCPUPerCall), mib(p.HubIdleRSS), mib(p.HubRSS),
			fmt.Sprintf("%.2f", p.P50Ratio), fmt.Sprintf("%.2f", p.P99Ratio))
	}
	_ = t.flush()
	printConcurrent(w, rep)
	in := rep.InProcess
	fmt.Fprintf(w, "\nin-process echo, %s on %s, %s (target ≥ %d calls/s):\n",
		conductor.Count(in.Workers, "worker"), conductor.Count(in.Cores, "core"), conductor.Count(in.Calls, "call"), targetInProcessCallsPerSec)
	fmt.Fprintf(w, "  hub.Call:              %8.0f calls/s  p50 %s  p99 %s\n",
		in.HubCallsPerSec, humanDuration(in.HubLatency.P50), humanDuration(in.HubLatency.P99))
	fmt.Fprintf(w, "  through the MCP server: %7.0f calls/s  p50 %s  p99 %s\n",
		in.SurfaceCallsPerSec, humanDuration(in.SurfaceLatency.P50), humanDuration(in.SurfaceLatency.P99))
	fmt.Fprintf(w, "\nidle RSS of toolhub serve (target < %d MiB):", targetIdleRSSMiB)
	for _, p := range rep.Paths {
		if p.HubIdleRSS > 0 && !p.Compared {
			fmt.Fprintf(w, "  %s %s", p.Name, mib(p.HubIdleRSS))
		}
	}
	for _, p := range rep.Paths {
		if p.HubIdleRSS > 0 && p.Compared {
			fmt.Fprintf(w, "; the compared proxy %s", mib(p.HubIdleRSS))
		}
	}
	fmt.Fprintln(w)
}

// printConcurrent prints the concurrent rounds, when they ran.
func printConcurrent(w io.Writer, rep *bench.ProxyReport) {
	if len(rep.Paths) == 0 || rep.Paths[0].Concurrent == nil {
		return
	}
	fmt.Fprintf(w, "\n%d callers at once:\n", rep.Paths[0].Concurrent.Callers)
	t := newTable(w, "PATH", "P50", "P99", "CALLS/S", "PROXY CPU/CALL", "CLIENT CPU/CALL")
	for _, p := range rep.Paths {
		c := p.Concurrent
		t.row(p.Name, humanDuration(c.Latency.P50), humanDuration(c.Latency.P99), fmt.Sprintf("%.0f", c.CallsPerSec),
			humanDuration(c.HubCPUPerCall), humanDuration(c.ClientCPUPerCall))
	}
	_ = t.flush()
}

// mib prints a byte count in MiB, or "-" when not measured.
func mib(b int64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}
