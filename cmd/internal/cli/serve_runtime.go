package cli

import (
	"context"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/memtrim"
)

// serveThreads is how many threads run Go code while toolhub serves,
// over its own stdin and stdout or over HTTP.
//
// A relay spends its time waiting on pipes and sockets: each message wakes
// it, passes through a few goroutines and goes out again. With more than
// one processor the runtime hands those goroutines to other threads,
// waking them for a few microseconds of work; on two cores that doubled the
// CPU time per relayed stdio call and added a third to its latency, and
// over HTTP it cost 510 against 150 µs of CPU per call, with the p50 of
// one caller 0.79 against 0.64 ms and of eight callers 1.5 against 1.1 ms
// ("toolhub bench proxy"). One processor keeps a message on one thread from
// pipe to pipe. Goroutines still run concurrently, blocking system calls
// get threads of their own, and child processes (the servers, the python
// tool) are unaffected; what one processor caps is toolhub's own Go code,
// such as indexing documents through index_documents. GOMAXPROCS in the
// environment overrides it.
const serveThreads = 1

// tuneThreads sets serveThreads when in is the process's own stdin (the
// toolhub process itself, in either mode) and GOMAXPROCS is not set.
// Serving any other reader (tests, embedding) leaves the runtime as it is.
func tuneThreads(in io.Reader, mode string, log *slog.Logger) {
	if !isProcessStdin(in) {
		return
	}
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		return
	}
	was := runtime.GOMAXPROCS(serveThreads)
	log.Debug("toolhub serve runs Go code on one thread", "mode", mode, "gomaxprocs", serveThreads, "was", was)
}

// isProcessStdin tells the toolhub process serving (over stdio or HTTP)
// from a test serving in-process with readers of its own.
func isProcessStdin(in io.Reader) bool { return in == io.Reader(os.Stdin) }

// releaseStartupMemory gives back, once the servers have settled, the
// memory starting up used and idle serving does not: the heap left over
// (package initialisation, configuration, connecting every server, building
// the catalog) and the pages of the toolhub binary start-up touched
// (memtrim.Watch), which it does again whenever toolhub goes idle after
// work. Only the toolhub process itself (own) gives back its binary's pages;
// a test serving in-process returns its heap only.
func releaseStartupMemory(ctx context.Context, h *hub.Hub, own bool, log *slog.Logger) {
	go func() {
		if h.WaitSettled(ctx) != nil {
			return
		}
		if !own {
			debug.FreeOSMemory()
			return
		}
		memtrim.Watch(ctx, memtrim.Options{Log: log})
	}()
}
