package cli

import (
	"context"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/toolhub/toolhub/hub"
)

// stdioThreads is how many threads run Go code while toolhub serves one
// client over the process's own stdin and stdout.
//
// A stdio relay spends its time waiting on pipes: each message wakes it,
// passes through a few goroutines and goes out again. With more than one
// processor the runtime hands those goroutines to other threads, waking
// them for a few microseconds of work; on two cores that doubled the CPU
// time per relayed call and added a third to its latency ("toolhub bench
// proxy"). One processor keeps a message on one thread from pipe to pipe.
// Goroutines still run concurrently and child processes (the servers, the
// python tool) are unaffected. GOMAXPROCS in the environment overrides it.
const stdioThreads = 1

// tuneForStdio sets stdioThreads when in is the process's own stdin and
// GOMAXPROCS is not set. Serving any other reader (tests, embedding) leaves
// the runtime as it is.
func tuneForStdio(in io.Reader, log *slog.Logger) {
	if in != io.Reader(os.Stdin) {
		return
	}
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		return
	}
	was := runtime.GOMAXPROCS(stdioThreads)
	log.Debug("stdio relay runs Go code on one thread", "gomaxprocs", stdioThreads, "was", was)
}

// releaseStartupMemory returns the heap left over from starting up (package
// initialisation, configuration, connecting every server, building the
// catalog) to the operating system once the servers have settled, so that
// an idle "toolhub serve" holds only what it uses. The runtime would return
// it too, but over minutes.
func releaseStartupMemory(ctx context.Context, h *hub.Hub) {
	go func() {
		if h.WaitSettled(ctx) == nil {
			debug.FreeOSMemory()
		}
	}()
}
