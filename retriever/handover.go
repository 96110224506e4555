package retriever

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A process that finds the index in use leaves a request in the index's
// folder (handover-PID) while it waits; the holder closes the index as
// soon as none of its work needs it (tools.Documents does), and the waiter
// opens it then. Two MCP clients each running `toolhub serve` over stdio
// take turns this way instead of one of them losing its document tools.
const handoverPrefix = "handover-"

// handoverFresh is how old a request may be before it is taken for one
// left behind by a waiter that died.
const handoverFresh = time.Minute

// handoverPoll is how often a waiter tries to open the index again.
const handoverPoll = 100 * time.Millisecond

// OpenWaiting is Open for an index other toolhub processes may hold: when
// one does, it asks that process to hand the index over and tries again
// until wait has passed or ctx ends, returning ErrInUse then. wait should
// stay under handoverFresh, past which the request is taken for one left
// by a waiter that died.
func OpenWaiting(ctx context.Context, dir string, opts Options, wait time.Duration) (*Index, error) {
	ix, err := Open(dir, opts)
	if !errors.Is(err, ErrInUse) || wait <= 0 {
		return ix, err
	}
	opts.withDefaults().Logger.Info("the document index is held by another toolhub process; asking it to hand it over",
		"dir", dir, "waiting_up_to", wait)
	request := filepath.Join(dir, handoverPrefix+strconv.Itoa(os.Getpid()))
	_ = os.WriteFile(request, nil, 0o600)
	defer func() { _ = os.Remove(request) }()
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(handoverPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, err
		case <-deadline.C:
			return nil, err
		case <-tick.C:
		}
		if ix, err = Open(dir, opts); !errors.Is(err, ErrInUse) {
			return ix, err
		}
	}
}

// HandoverRequested reports whether another process waits for the index:
// its holder should close it once idle.
func (ix *Index) HandoverRequested() bool {
	entries, err := os.ReadDir(ix.dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), handoverPrefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) < handoverFresh {
			return true
		}
	}
	return false
}
