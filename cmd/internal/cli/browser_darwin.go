//go:build darwin

package cli

import (
	"context"
	"os/exec"
)

// openBrowser opens url in the default browser (open).
func openBrowser(_ context.Context, url string) error {
	return startDetached(exec.Command("open", url))
}
