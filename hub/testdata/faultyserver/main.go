// Command faultyserver is an MCP server over stdio that misbehaves on demand.
// The hub's fault tests run it as a downstream. It speaks JSON-RPC by hand so
// that it can break the protocol in ways a real SDK never would.
//
//	faultyserver -mode MODE [-pidfile FILE] [-storm N]
//
// Modes:
//
//	ok          a well-behaved server (the default)
//	storm       after initialization, sends N tools/list_changed, then a
//	            "storm done" log message, and keeps serving
//	garbage     prints a line that is not JSON on stdout at start
//	exit-init   exits with status 4 when asked to initialize
//	crash-loop  exits with status 3 right after start
//	spawn       starts a grandchild (itself in sleeper mode) that outlives
//	            it, and exits on end of input, leaving the grandchild behind
//	sleeper     sleeps for 1000 s and serves nothing (the grandchild)
//	stubborn    ignores SIGTERM and end of input; only SIGKILL ends it
//	lenient     answers every method it does not know with an empty result
//
// In every mode the ask tool sends the client a request of its choosing
// (sampling/createMessage, elicitation/create, roots/list) and returns the
// answer.
//
// Every mode appends its pid (and the grandchild's, in spawn mode) to the
// pidfile, one per line, and writes what it does to stderr.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	mode := flag.String("mode", "ok", "how to misbehave")
	pidfile := flag.String("pidfile", "", "file to append pids to")
	storm := flag.Int("storm", 1000, "tools/list_changed notifications sent in storm mode")
	flag.Parse()

	logf("faultyserver: pid %d mode %s", os.Getpid(), *mode)
	appendPid(*pidfile, os.Getpid())
	if *mode == "sleeper" {
		time.Sleep(1000 * time.Second)
		return
	}

	switch *mode {
	case "crash-loop":
		logf("faultyserver: crash-loop: exiting at start")
		os.Exit(3)
	case "garbage":
		fmt.Println("faultyserver says hello, which is not JSON")
	case "spawn":
		spawnGrandchild(*pidfile)
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
	}

	s := newServer(*mode, *storm, os.Stdout)
	s.serve(os.Stdin)
	logf("faultyserver: end of input")
	if *mode == "stubborn" {
		for {
			time.Sleep(time.Hour)
		}
	}
}

// spawnGrandchild starts a long sleep that shares the server's stderr, as an
// npx-launched server's node process would: this program again, so that it
// runs on every system.
func spawnGrandchild(pidfile string) {
	self, err := os.Executable()
	if err != nil {
		logf("faultyserver: spawn: %v", err)
		os.Exit(5)
	}
	cmd := exec.Command(self, "-mode", "sleeper")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		logf("faultyserver: spawn: %v", err)
		os.Exit(5)
	}
	logf("faultyserver: grandchild pid %d", cmd.Process.Pid)
	appendPid(pidfile, cmd.Process.Pid)
}

func appendPid(pidfile string, pid int) {
	if pidfile == "" {
		return
	}
	f, err := os.OpenFile(pidfile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		logf("faultyserver: pidfile: %v", err)
		os.Exit(5)
	}
	defer f.Close()
	fmt.Fprintln(f, pid)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}
