package cli

import (
	"fmt"
	"os/exec"
)

// startDetached starts a browser launcher and reaps it in the background:
// launchers return at once, but some stay until the browser closes.
func startDetached(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
