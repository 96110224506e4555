package bench

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"
)

// ConcurrentReport is what one path measured with several callers at once.
type ConcurrentReport struct {
	Callers int         `json:"callers"`
	Latency Percentiles `json:"latency"` // every call of every round
	// CallsPerSec is the median over the rounds of calls finished per
	// second of a round's wall time.
	CallsPerSec float64 `json:"callsPerSec"`
	// ClientCPUPerCall is the CPU time the bench process (the callers'
	// MCP client, nothing else runs then) spent per call of these rounds;
	// HubCPUPerCall is toolhub's (or the compared proxy's, when its
	// process is known), zero otherwise.
	// On a machine with few cores both compete for the same cores, so a
	// client that costs more per call lowers its path's calls/s.
	ClientCPUPerCall time.Duration `json:"clientCpuPerCallNs"`
	HubCPUPerCall    time.Duration `json:"hubCpuPerCallNs,omitempty"`
}

// measureConcurrent runs opts.Rounds rounds in which every path in turn
// takes opts.Calls calls from opts.Concurrency callers at once, sharing the
// path's client (one session, as an IDE client calling tools in parallel);
// which path goes first rotates from round to round, so that all see the
// same machine load.
func measureConcurrent(ctx context.Context, paths []*proxyPath, opts ProxyOptions) ([]ConcurrentReport, error) {
	samples := make([][]time.Duration, len(paths))
	rates := make([][]float64, len(paths))
	clientCPU := make([]time.Duration, len(paths))
	hubCPU := make([]time.Duration, len(paths))
	for r := 0; r < opts.Rounds; r++ {
		for k := range paths {
			i := (k + r) % len(paths)
			client, hub := roundCPU(paths[i])
			got, elapsed, err := callConcurrently(ctx, paths[i], opts.Concurrency, opts.Calls)
			if err != nil {
				return nil, err
			}
			client2, hub2 := roundCPU(paths[i])
			clientCPU[i] += client2 - client
			hubCPU[i] += hub2 - hub
			samples[i] = append(samples[i], got...)
			rates[i] = append(rates[i], float64(len(got))/elapsed.Seconds())
		}
	}
	out := make([]ConcurrentReport, len(paths))
	for i := range paths {
		out[i] = ConcurrentReport{Callers: opts.Concurrency, Latency: summarize(samples[i]), CallsPerSec: median(rates[i])}
		if n := len(samples[i]); n > 0 {
			out[i].ClientCPUPerCall = clientCPU[i] / time.Duration(n)
			out[i].HubCPUPerCall = hubCPU[i] / time.Duration(n)
		}
	}
	return out, nil
}

// roundCPU reads the CPU time used so far by the bench process and by p's
// toolhub (zero when p has none, or where /proc cannot be read).
func roundCPU(p *proxyPath) (client, hub time.Duration) {
	client, _ = processCPU(os.Getpid())
	return client, cpuOf(p)
}

// callConcurrently makes calls echo calls on p from callers goroutines and
// returns each call's latency and the wall time of them all.
func callConcurrently(ctx context.Context, p *proxyPath, callers, calls int) ([]time.Duration, time.Duration, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		all      = make([]time.Duration, 0, calls)
		firstErr error
		wg       sync.WaitGroup
	)
	start := time.Now()
	for w := range callers {
		n := calls / callers
		if w < calls%callers {
			n++
		}
		wg.Go(func() {
			mine := make([]time.Duration, 0, n)
			var err error
			for i := 0; i < n; i++ {
				d, cerr := p.call(ctx, "hello "+strconv.Itoa(w)+" "+strconv.Itoa(i))
				if cerr != nil {
					err = cerr
					break
				}
				mine = append(mine, d)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("%d callers at once: %w", callers, err)
				cancel()
			}
			all = append(all, mine...)
		})
	}
	wg.Wait()
	return all, time.Since(start), firstErr
}

// median is the middle value of xs (the upper one of an even count).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
