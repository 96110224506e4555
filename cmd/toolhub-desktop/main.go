// Command toolhub-desktop is the toolhub desktop app: it runs the daemon
// in-process, serves MCP over HTTP on 127.0.0.1 and shows preferences,
// servers, documents and runs in a window.
package main

import (
	"context"
	_ "embed"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolhub/toolhub/cmd/internal/desktopmain"
)

// icon is the app's icon, also the one `fyne package` puts in the archive.
//
//go:embed Icon.png
var icon []byte

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := desktopmain.Main(ctx, os.Args[1:], icon)
	stop()
	os.Exit(code)
}
