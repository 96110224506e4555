package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// runBench calls an echo tool through each of several MCP endpoints with
// this SDK's client, as toolhub bench proxy does with mcp-go's: first
// unmeasured calls, then calls one at a time interleaved across the
// endpoints, then rounds of calls from several callers at once sharing each
// endpoint's session. Each endpoint is NAME=TOOL@URL: Streamable HTTP, the
// bearer token from INTEROP_TOKEN, or with URL "stdio:COMMAND ARGS..." a
// server started as a child (words split at spaces).
func runBench(args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	warmup := fs.Int("warmup", 3000, "unmeasured calls per endpoint")
	calls := fs.Int("calls", 2000, "measured calls per endpoint, one at a time, and per round")
	rounds := fs.Int("rounds", 5, "rounds of concurrent calls")
	callers := fs.Int("concurrency", 8, "callers at once in a round")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	var paths []*benchPath
	for _, spec := range fs.Args() {
		p, err := connectBenchPath(ctx, spec)
		if err != nil {
			return err
		}
		defer p.session.Close()
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		return fmt.Errorf("usage: bench [flags] NAME=TOOL@URL...")
	}
	for i := 0; i < *warmup; i++ {
		for _, p := range paths {
			if _, err := p.call(ctx); err != nil {
				return err
			}
		}
	}
	one := make([][]time.Duration, len(paths))
	for i := 0; i < *calls; i++ {
		for k := range paths {
			at := (i + k) % len(paths) // rotate who goes first
			d, err := paths[at].call(ctx)
			if err != nil {
				return err
			}
			one[at] = append(one[at], d)
		}
	}
	lat := make([][]time.Duration, len(paths))
	rates := make([][]float64, len(paths))
	for r := 0; r < *rounds; r++ {
		for k := range paths {
			at := (r + k) % len(paths)
			l, rate, err := paths[at].round(ctx, *calls, *callers)
			if err != nil {
				return err
			}
			lat[at], rates[at] = append(lat[at], l...), append(rates[at], rate)
		}
	}
	fmt.Printf("%-12s %-10s %10s %9s %10s %9s\n", "PATH", "PROTOCOL", "C=1 P50", "CALLS/S", "C=N P50", "CALLS/S")
	for k, p := range paths {
		fmt.Printf("%-12s %-10s %10v %9.0f %10v %9.0f\n", p.name, p.protocol, median(one[k]),
			float64(len(one[k]))/sum(one[k]).Seconds(), median(lat[k]), medianOf(rates[k]))
	}
	return nil
}

type benchPath struct {
	name, tool, protocol string
	session              *sdk.ClientSession
}

func connectBenchPath(ctx context.Context, spec string) (*benchPath, error) {
	name, rest, ok1 := strings.Cut(spec, "=")
	tool, url, ok2 := strings.Cut(rest, "@")
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("endpoint %q: want NAME=TOOL@URL", spec)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "bench-gosdkclient", Version: "1"}, nil)
	var tr sdk.Transport = &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{token: os.Getenv("INTEROP_TOKEN")}}}
	if command, ok := strings.CutPrefix(url, "stdio:"); ok {
		words := strings.Fields(command)
		if len(words) == 0 {
			return nil, fmt.Errorf("endpoint %q: stdio: names no command", spec)
		}
		tr = &sdk.CommandTransport{Command: exec.Command(words[0], words[1:]...)}
	}
	s, err := client.Connect(ctx, tr, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if _, err := s.ListTools(ctx, nil); err != nil {
		return nil, fmt.Errorf("%s: tools/list: %w", name, err)
	}
	return &benchPath{name: name, tool: tool, protocol: s.InitializeResult().ProtocolVersion, session: s}, nil
}

func (p *benchPath) call(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	res, err := p.session.CallTool(ctx, &sdk.CallToolParams{Name: p.tool, Arguments: map[string]any{"message": "hello"}})
	if err == nil && res.IsError {
		err = fmt.Errorf("%s: %s answered with an error", p.name, p.tool)
	}
	return time.Since(start), err
}

// round makes calls from callers at once and returns each call's latency
// and the calls per second of the round.
func (p *benchPath) round(ctx context.Context, calls, callers int) ([]time.Duration, float64, error) {
	var mu sync.Mutex
	var lat []time.Duration
	var first error
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < callers; w++ {
		wg.Go(func() {
			for j := w; j < calls; j += callers {
				d, err := p.call(ctx)
				mu.Lock()
				lat = append(lat, d)
				if err != nil && first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return lat, float64(calls) / time.Since(start).Seconds(), first
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2].Round(time.Microsecond)
}

func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func sum(d []time.Duration) time.Duration {
	var t time.Duration
	for _, x := range d {
		t += x
	}
	return t
}
