package retriever

import (
	"context"
	"os"
	"sync"
)

// job is one document to ingest: a file (size set) or a given document.
type job struct {
	path string
	size int64
	doc  *Document
	root *os.Root // files: the folder the file is read from, confined
	rel  string   // files: the path inside root
}

// outcome is what a worker made of a job: a document ready to commit, or
// an event (unchanged, skipped, failed).
type outcome struct {
	event    Event
	prepared *preparedDoc
}

// runPipeline reads and chunks jobs on opts.Workers goroutines and
// commits the results from this one, in groups of about bleveBatchChunks
// chunks. It returns the paths now indexed or found unchanged.
func (ix *Index) runPipeline(ctx context.Context, jobs []job, opts IngestOptions, t *tally) (map[string]bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobCh := make(chan job)
	outCh := make(chan outcome, opts.Workers)
	go func() {
		defer close(jobCh)
		for _, j := range jobs {
			select {
			case jobCh <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range opts.Workers {
		wg.Go(func() {
			for j := range jobCh {
				outCh <- ix.prepare(j, opts.MaxFileBytes)
			}
		})
	}
	go func() { wg.Wait(); close(outCh) }()

	c := committer{ix: ix, t: t, seen: map[string]bool{}}
	for o := range outCh {
		if c.err != nil {
			continue // drain so the workers can finish
		}
		if c.add(o) != nil {
			cancel()
		}
	}
	if c.err == nil {
		c.flush()
	}
	if c.err == nil && ctx.Err() != nil {
		return c.seen, context.Cause(ctx)
	}
	return c.seen, c.err
}

// committer groups prepared documents and commits them.
type committer struct {
	ix     *Index
	t      *tally
	group  []preparedDoc
	chunks int
	seen   map[string]bool
	err    error
}

func (c *committer) add(o outcome) error {
	if o.prepared == nil {
		if o.event.Kind == EventUnchanged {
			c.seen[o.event.Path] = true
		}
		c.t.emit(o.event)
		return nil
	}
	c.group = append(c.group, *o.prepared)
	c.chunks += len(o.prepared.chunks)
	if c.chunks >= c.ix.batchChunks || len(c.group) >= c.ix.batchChunks {
		c.flush()
	}
	return c.err
}

func (c *committer) flush() {
	if len(c.group) == 0 {
		return
	}
	recs, err := c.ix.commitGroup(c.group)
	if err != nil {
		c.err = err
		return
	}
	for _, rec := range recs {
		c.seen[rec.Path] = true
		c.t.emit(Event{Kind: EventIndexed, Path: rec.Path, Chunks: rec.Committed.Chunks})
	}
	c.group, c.chunks = c.group[:0], 0
}
