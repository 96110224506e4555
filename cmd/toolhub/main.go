// Command toolhub is the headless toolhub: an MCP hub over the user's MCP
// servers, a private document index and a routing orchestrator.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolhub/toolhub/cmd/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr})
	stop()
	os.Exit(code)
}
