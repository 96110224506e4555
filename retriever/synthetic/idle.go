package synthetic

import (
	"context"
	"time"

	"github.com/toolhub/toolhub/retriever"
)

// Quiet-wait bounds: the resident size is read every quietPoll and taken
// once it has moved less than quietBytes over quietPolls readings (the
// stores finish their compactions and merges after opening), or after
// quietMax.
const (
	quietPoll  = 500 * time.Millisecond
	quietPolls = 4
	quietBytes = 1 << 20
	quietMax   = 60 * time.Second
)

// IdleMemory opens the synthetic index in dir, as a run built it, waits
// until the process is idle and returns its memory. Run in a fresh
// process, it is what a restarted hub holding that index costs.
func IdleMemory(ctx context.Context, dir string, dims int) (Memory, error) {
	ix, err := retriever.Open(dir, retriever.Options{Embedder: randomEmbedder{dims: dims}})
	if err != nil {
		return Memory{}, err
	}
	defer func() { _ = ix.Close() }()
	return quietMemory(ctx)
}

// quietMemory waits until the resident size settles, then reads it after
// returning freed heap to the OS.
func quietMemory(ctx context.Context) (Memory, error) {
	tick := time.NewTicker(quietPoll)
	defer tick.Stop()
	deadline := time.Now().Add(quietMax)
	var last int64
	steady := 0
	for steady < quietPolls && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return Memory{}, ctx.Err()
		case <-tick.C:
		}
		settle()
		m, err := ReadMemory()
		if err != nil {
			return m, err
		}
		if d := m.RSSBytes - last; d < quietBytes && d > -quietBytes {
			steady++
		} else {
			steady = 0
		}
		last = m.RSSBytes
	}
	settle()
	return ReadMemory()
}
