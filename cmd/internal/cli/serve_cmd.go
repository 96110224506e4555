package cli

import (
	"context"
	"errors"
	"net"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/mcp"
)

// serveOptions are the flags of toolhub serve.
type serveOptions struct {
	httpAddr     string
	expose       string
	tokenFile    string
	noAuth       bool
	allowOrigins []string
	maxBody      int64
	maxResult    int64
}

func newServeCommand(g *globals) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve every tool to MCP clients, over stdio or HTTP",
		Long: `Serves the merged catalog as one MCP server: over stdio by default (an MCP
client starts "toolhub serve" as its child; stdout carries only protocol, logs
go to stderr), or over Streamable HTTP with --http, on 127.0.0.1:8765 and the
path /mcp unless --http=ADDR says otherwise (note the "=": --http alone takes
no value).

Over HTTP every request needs "Authorization: Bearer <token>". The token is
generated on first use and kept (mode 0600) in the user config directory
(toolhub/token), or read from --token-file, which is created with a new token
when missing. Browser origins other than this machine are refused unless
--allow-origin names them; pages of those origins, and of this machine when a
token is required, get CORS headers, so they can connect from a browser.
--no-auth is accepted only on a loopback address.
On start the endpoint, the token file (never the token itself) with commands
that print or copy it, and ready-to-paste client configurations that read the
token from the file, from $TOOLHUB_TOKEN or from a prompt are printed on
stderr. An address other machines can reach (0.0.0.0, ::, a LAN address) is
warned about, and the endpoint is shown at this host's own addresses.

A request's headers must arrive within 10 seconds and its body within 2
minutes, after the first 10 seconds at 1 KiB a second at least; a slower
request is answered 408 and its connection closed. Answers, event streams and
long tool calls have no time limit.

--expose chooses what clients see: "direct" lists every catalog tool,
"search" only find_tools, describe_tool and call_tool (a small, fixed list
however many servers there are), "both" (the default) every tool plus
find_tools.

While it runs, serve follows the config file: a server added, edited or
removed there (by hand, with toolhub config import, or from the desktop) is
started, restarted or stopped a moment after the file is saved, and the other
servers keep their connections. A file that does not parse changes nothing;
the problem is logged.

SIGINT or SIGTERM stops accepting requests, closes client sessions and stops
every downstream server.`,
		Example: `  toolhub serve
  toolhub serve --expose search
  toolhub serve --http
  toolhub serve --http=127.0.0.1:9000 --token-file ./token --allow-origin https://app.example.com`,
		Args: serveArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.serve(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.httpAddr, "http", "", "serve Streamable HTTP on ADDR (default "+mcp.DefaultHTTPAddr+") instead of stdio")
	f.Lookup("http").NoOptDefVal = mcp.DefaultHTTPAddr
	f.StringVar(&o.expose, "expose", string(mcp.ExposeBoth), "tool surface: direct, search or both")
	f.StringVar(&o.tokenFile, "token-file", "", "file holding the HTTP bearer token, created when missing (default <user config dir>/toolhub/token)")
	f.BoolVar(&o.noAuth, "no-auth", false, "serve HTTP without a token (loopback addresses only)")
	f.StringArrayVar(&o.allowOrigins, "allow-origin", nil, "browser origin allowed besides this machine's, as scheme://host[:port] (repeatable)")
	f.Int64Var(&o.maxBody, "max-body", mcp.DefaultMaxBodyBytes, "largest request accepted (an HTTP body or a stdio message), in bytes")
	f.Int64Var(&o.maxResult, "max-result", mcp.DefaultMaxResultBytes, "largest tool result passed on, in bytes")
	return cmd
}

// check rejects flag combinations that make no sense.
func (o serveOptions) check() error {
	if _, err := mcp.ParseExposure(o.expose); err != nil {
		return usageError("--expose: %v", err)
	}
	if o.httpAddr != "" {
		if _, _, err := net.SplitHostPort(o.httpAddr); err != nil {
			return usageError("--http=%s: %v (want HOST:PORT, such as %s)", o.httpAddr, err, mcp.DefaultHTTPAddr)
		}
	}
	if o.httpAddr == "" {
		for flag, set := range map[string]bool{"--no-auth": o.noAuth, "--token-file": o.tokenFile != "",
			"--allow-origin": len(o.allowOrigins) > 0} {
			if set {
				return usageError("%s applies only with --http", flag)
			}
		}
	}
	if o.noAuth && o.tokenFile != "" {
		return usageError("use either --no-auth or --token-file, not both")
	}
	if o.maxBody <= 0 || o.maxResult <= 0 {
		return usageError("--max-body and --max-result must be positive")
	}
	return nil
}

// serve runs the daemon and the MCP surface until ctx ends or, over stdio,
// the client closes its end.
func (g *globals) serve(ctx context.Context, o serveOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	d, err := g.newDaemon(mcp.Options{Expose: mcp.Exposure(o.expose), MaxResultBytes: o.maxResult,
		MaxMessageBytes: o.maxBody}, true)
	if err != nil {
		return err
	}
	d.Start(ctx)
	d.StartModelHost(ctx)
	defer d.Close()
	releaseStartupMemory(ctx, d.Hub(), isProcessStdin(g.stdio.In), g.logger())
	srv := d.MCP()
	if o.httpAddr == "" {
		g.logger().Info("serving MCP over stdio")
		tuneThreads(g.stdio.In, "stdio", g.logger())
		return srv.ServeStdio(ctx, g.stdio.In, g.stdio.Out)
	}
	tuneThreads(g.stdio.In, "http", g.logger())
	return g.serveHTTP(ctx, srv, o)
}

func (g *globals) serveHTTP(ctx context.Context, srv *mcp.Server, o serveOptions) error {
	token, tokenFile, err := serveToken(o)
	if err != nil {
		return err
	}
	endpoint, err := srv.ListenHTTP(mcp.HTTPOptions{
		Addr:         o.httpAddr,
		Token:        token,
		AllowOrigins: o.allowOrigins,
		MaxBodyBytes: o.maxBody,
	})
	if errors.Is(err, mcp.ErrUnauthenticatedNonLoopback) {
		return asUsage(err)
	}
	if err != nil {
		return err
	}
	g.printServeBanner(endpoint, tokenFile)
	return endpoint.Serve(ctx)
}

// serveToken loads (or creates) the bearer token, unless --no-auth.
func serveToken(o serveOptions) (token, file string, err error) {
	if o.noAuth {
		return "", "", nil
	}
	file = o.tokenFile
	if file == "" {
		if file, err = mcp.DefaultTokenFile(); err != nil {
			return "", "", err
		}
	}
	if token, err = mcp.LoadOrCreateToken(file); err != nil {
		return "", "", err
	}
	return token, file, nil
}

// serveArgs refuses arguments; one right after a bare --http is an address
// written with a space, which --http (whose value is optional) cannot
// take: the error says to write it with "=".
func serveArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 && cmd.Flags().Changed("http") && cmd.Flags().Lookup("http").Value.String() == mcp.DefaultHTTPAddr {
		return usageError("--http takes its address after \"=\": --http=%s (a bare --http serves on %s)", args[0], mcp.DefaultHTTPAddr)
	}
	return cobra.NoArgs(cmd, args)
}
