//go:build windows

package cli

import (
	"context"
	"os/exec"
)

// openBrowser opens url in the default browser through the URL protocol
// handler, which, unlike "start", parses no shell metacharacters.
func openBrowser(_ context.Context, url string) error {
	return startDetached(exec.Command("rundll32", "url.dll,FileProtocolHandler", url))
}
