package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/hub"
)

// authStatus is what toolhub auth status prints: never a token.
type authStatus struct {
	SecretStore string             `json:"secretStore"`
	Servers     []hub.SignInStatus `json:"servers"`
}

func newAuthStatusCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show which remote servers are signed in",
		Long: `Lists every enabled http server of the config: signed-in (with when the
current token expires, whether it renews itself, and its scopes), needs-sign-in
(run toolhub auth login NAME), or not-using-oauth (no sign-in stored and none
configured; such a server that starts asking for sign-in shows as
needs-sign-in in toolhub servers). The last line says where the secret store
is. Nothing here contacts the servers.`,
		Example: "  toolhub auth status\n  toolhub auth status --json",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			specs, err := g.remoteSpecs()
			if err != nil {
				return err
			}
			secrets, creds, err := g.openCredentials()
			if err != nil {
				return err
			}
			out := authStatus{SecretStore: secrets.Backend(), Servers: []hub.SignInStatus{}}
			for _, spec := range specs {
				st, err := creds.Status(spec)
				if err != nil {
					return err
				}
				out.Servers = append(out.Servers, st)
			}
			if asJSON {
				return writeJSON(g.stdio.Out, out)
			}
			if len(out.Servers) == 0 {
				fmt.Fprintln(g.stdio.Out, errNoServers.Error())
			} else {
				t := newTable(g.stdio.Out, "SERVER", "STATE", "EXPIRES", "SCOPES")
				for _, st := range out.Servers {
					t.row(st.Server, string(st.State), expiresColumn(st), strings.Join(st.Scopes, " "))
				}
				if err := t.flush(); err != nil {
					return err
				}
			}
			fmt.Fprintln(g.stdio.Out, "\nsecret store: "+out.SecretStore)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func expiresColumn(st hub.SignInStatus) string {
	switch {
	case st.State != hub.SignedIn && st.State != hub.NeedsSignIn:
		return "-"
	case st.Expires.IsZero():
		return "never"
	}
	text := st.Expires.Local().Format(time.DateTime)
	if st.Refreshable {
		text += " (renews)"
	}
	return text
}
