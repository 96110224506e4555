package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/secrets"
)

func newAuthCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "Sign in to remote MCP servers that ask for it (OAuth)",
		Long: `Remote (http) MCP servers may require you to sign in with OAuth 2.1. Such a
server shows as needs-sign-in in toolhub servers, and calls of its tools say
so, until you run toolhub auth login NAME once. toolhub then keeps the token
in its secret store and renews it by itself; a running toolhub serve picks up a
new sign-in within seconds.

Nothing needs configuring: toolhub discovers the authorization server from the
server's answer, registers itself as a client when the server allows that, and
asks for the scopes the server names. A server that needs a client registered
ahead of time takes "oauth": {"clientId": ..., "clientSecret": "${VAR}"} in its
config entry (see toolhub config init). Tokens never appear in the config, in
logs or in any output.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newAuthLoginCommand(g), newAuthStatusCommand(g), newAuthLogoutCommand(g))
	return cmd
}

// openCredentials opens the secret store of the config (the system
// keychain, or a file beside the config) and the sign-ins it keeps.
func (g *globals) openCredentials() (*secrets.Store, *hub.Credentials, error) {
	path, _, err := g.locateConfig()
	if err != nil {
		return nil, nil, err
	}
	store, err := daemon.OpenSecrets(path)
	if err != nil {
		return nil, nil, err
	}
	return store, daemon.Credentials(store), nil
}

// remoteSpecs are the config's enabled http servers, OAuth settings included.
func (g *globals) remoteSpecs() ([]hub.ServerSpec, error) {
	cfg, err := g.loadServeConfig()
	if err != nil {
		return nil, err
	}
	lookup := config.Lookup{Env: os.LookupEnv}
	if store, _, err := g.openCredentials(); err == nil {
		lookup.Secrets = daemon.SecretLookup(store)
	}
	var out []hub.ServerSpec
	for _, spec := range cfg.WithOAuth(cfg.ServeSpecsFrom(lookup), lookup) {
		if spec.Transport == hub.TransportHTTP {
			out = append(out, spec)
		}
	}
	return out, nil
}

// remoteSpec is the named http server's spec.
func (g *globals) remoteSpec(name string) (hub.ServerSpec, error) {
	specs, err := g.remoteSpecs()
	if err != nil {
		return hub.ServerSpec{}, err
	}
	for _, spec := range specs {
		if spec.Name != name {
			continue
		}
		if spec.Invalid != "" {
			return hub.ServerSpec{}, usageError("server %s: its config entry cannot be used: %s", name, spec.Invalid)
		}
		return spec, nil
	}
	return hub.ServerSpec{}, usageError("no enabled http server named %q in the config (toolhub auth status lists them)", name)
}

func newAuthLoginCommand(g *globals) *cobra.Command {
	var timeout time.Duration
	var noBrowser bool
	cmd := &cobra.Command{
		Use:   "login SERVER",
		Short: "Sign in to a remote server in the browser",
		Long: `Opens the server's sign-in page in your browser and waits for it to send you
back to toolhub, on a one-time listener at http://127.0.0.1:PORT/callback. The
sign-in URL is always printed too: on a machine without a browser, open it
anywhere that can reach this machine's loopback address, e.g. over an SSH
tunnel to the printed port, or paste it into a browser on this machine.

On success the token is stored in toolhub's secret store and "Signed in to
NAME" is printed. A running toolhub serve connects to the server within a few
seconds.`,
		Example: "  toolhub auth login notes\n  toolhub auth login notes --no-browser --timeout 10m",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := durationPositive(cmd, "timeout"); err != nil {
				return err
			}
			spec, err := g.remoteSpec(args[0])
			if err != nil {
				return err
			}
			_, creds, err := g.openCredentials()
			if err != nil {
				return err
			}
			opts := hub.SignInOptions{
				Timeout: timeout,
				ShowURL: func(u string) {
					fmt.Fprintf(g.stdio.Err, "Sign in to %s by opening this URL:\n\n  %s\n\nWaiting up to %s...\n", spec.Name, u, timeout)
				},
			}
			if !noBrowser {
				opts.OpenBrowser = g.browserOpener()
			}
			st, err := creds.SignIn(cmd.Context(), spec, opts)
			if err != nil {
				return err
			}
			fmt.Fprintf(g.stdio.Out, "Signed in to %s%s\n", spec.Name, expiryText(st))
			return nil
		},
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 5*time.Minute, "how long to wait for the browser to come back")
	cmd.Flags().BoolVar(&noBrowser, "no-browser", false, "only print the sign-in URL; open no browser")
	return cmd
}

// browserOpener opens a URL in the user's browser, saying so when it cannot.
func (g *globals) browserOpener() func(ctx context.Context, url string) error {
	open := g.openBrowser
	if open == nil {
		open = openBrowser
	}
	return func(ctx context.Context, url string) error {
		if err := open(ctx, url); err != nil {
			fmt.Fprintf(g.stdio.Err, "(could not open a browser: %v; open the URL above yourself)\n", err)
			return err
		}
		return nil
	}
}

func newAuthLogoutCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "logout SERVER",
		Short: "Forget a server's sign-in, revoking its tokens",
		Long: `Revokes the server's tokens at its authorization server when that offers
revocation (RFC 7009), then deletes them and the client toolhub registered from
the secret store. The server then needs sign-in again; a running toolhub serve
drops its connection within seconds. When revocation fails the sign-in is
still forgotten here, and the error says so. A sign-in kept for a server no
longer in the config is forgotten too; a name that is neither is refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.signOut(cmd.Context(), args[0])
		},
	}
}

// signOut forgets the named server's sign-in. A server in the config that
// keeps no sign-in is told so; a name neither in the config nor in the
// secret store is refused as login refuses it, and a sign-in kept for a
// server no longer in the config is forgotten.
func (g *globals) signOut(ctx context.Context, name string) error {
	_, creds, err := g.openCredentials()
	if err != nil {
		return err
	}
	stored, err := keepsSignIn(creds, name)
	if err != nil {
		return err
	}
	spec, specErr := g.remoteSpec(name)
	switch {
	case specErr != nil && !stored:
		return specErr
	case specErr != nil:
		if err := creds.Forget(name); err != nil {
			return err
		}
		fmt.Fprintf(g.stdio.Out, "Signed out of %s\n", name)
		return nil
	case !stored:
		fmt.Fprintf(g.stdio.Out, "Not signed in to %s: nothing to sign out of\n", name)
		return nil
	}
	revoked, err := creds.SignOut(ctx, spec, nil)
	if err != nil {
		return err
	}
	if revoked {
		fmt.Fprintf(g.stdio.Out, "Signed out of %s (tokens revoked)\n", name)
	} else {
		fmt.Fprintf(g.stdio.Out, "Signed out of %s\n", name)
	}
	return nil
}

// keepsSignIn reports whether the secret store holds a token or a
// registered client for the named server.
func keepsSignIn(creds *hub.Credentials, name string) (bool, error) {
	st, err := creds.Status(hub.ServerSpec{Name: name})
	if err != nil {
		return false, err
	}
	return st.State != hub.NotUsingOAuth || st.RegisteredClient, nil
}

// expiryText says when a new token lapses, for the login message.
func expiryText(st hub.SignInStatus) string {
	switch {
	case st.Expires.IsZero():
		return ""
	case st.Refreshable:
		return fmt.Sprintf(" (token renewed automatically; current one valid until %s)", st.Expires.Local().Format(time.DateTime))
	}
	return fmt.Sprintf(" (until %s; then sign in again)", st.Expires.Local().Format(time.DateTime))
}

var errNoServers = errors.New("no http servers in the config")
