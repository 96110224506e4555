//go:build !darwin && !windows

package cli

import (
	"context"
	"os/exec"
)

// openBrowser opens url with the desktop's handler (xdg-open).
func openBrowser(_ context.Context, url string) error {
	return startDetached(exec.Command("xdg-open", url))
}
