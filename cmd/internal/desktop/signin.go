package desktop

import (
	"context"

	"github.com/toolhub/toolhub/hub"
)

// SignIn implements ui.ServersBackend: the OAuth sign-in of a server that
// needs one. open receives the authorization URL, for the window to open
// in the browser and show; the call returns once the browser came back
// (or after five minutes, or when ctx ends), and the server then connects.
func (b *Backend) SignIn(ctx context.Context, name string, open func(authURL string)) error {
	_, err := b.opts.Daemon.Hub().SignIn(ctx, name, hub.SignInOptions{
		OpenBrowser: func(_ context.Context, u string) error { open(u); return nil },
	})
	return err
}
