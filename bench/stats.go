package bench

import (
	"sort"
	"time"
)

// Percentiles summarises a set of measured durations.
type Percentiles struct {
	N   int           `json:"n"`
	P50 time.Duration `json:"p50"`
	P90 time.Duration `json:"p90"`
	P99 time.Duration `json:"p99"`
	Max time.Duration `json:"max"`
}

// summarize sorts samples in place and reads the percentiles off them.
func summarize(samples []time.Duration) Percentiles {
	if len(samples) == 0 {
		return Percentiles{}
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	at := func(q float64) time.Duration {
		i := int(q * float64(len(samples)-1))
		return samples[i]
	}
	return Percentiles{N: len(samples), P50: at(0.50), P90: at(0.90), P99: at(0.99), Max: samples[len(samples)-1]}
}
