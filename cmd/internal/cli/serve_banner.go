package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/toolhub/toolhub/mcp"
)

// serveBanner is what toolhub serve --http prints on start. It names the
// token file, never the token.
type serveBanner struct {
	binding   mcp.Binding
	localURL  string // the endpoint as this machine reaches it
	tokenFile string // "" when authentication is off
	goos      string
}

// printServeBanner tells the user, on stderr, where toolhub listens and how
// to connect clients to it, in one write.
func (g *globals) printServeBanner(endpoint *mcp.HTTPServer, tokenFile string) {
	b := serveBanner{binding: endpoint.Binding(), localURL: endpoint.URL(), tokenFile: tokenFile, goos: runtime.GOOS}
	_, _ = io.WriteString(g.stdio.Err, b.text(g.stdioSnippets()))
}

// text renders the banner, stdio are the client entries that start
// toolhub over stdio.
func (b serveBanner) text(stdio []mcp.Snippet) string {
	var s strings.Builder
	s.WriteString(b.warning())
	b.writeEndpoint(&s)
	if b.tokenFile == "" {
		s.WriteString("authentication is off (--no-auth): any program on this machine may connect\n")
	} else {
		fmt.Fprintf(&s, "bearer token: in %s (send \"Authorization: Bearer <token>\")\n", b.tokenFile)
		fmt.Fprintf(&s, "  print it:   %s\n", catCommand(b.goos, b.tokenFile))
		fmt.Fprintf(&s, "  copy it:    %s\n", clipboardCommand(b.goos, b.tokenFile))
		fmt.Fprintf(&s, "  in a shell: %s\n", exportCommand(b.goos, b.tokenFile))
	}
	s.WriteString("\nClient configuration:\n")
	http := mcp.HTTPSnippets(b.clientURL(), "")
	if b.tokenFile != "" {
		http = mcp.HTTPSnippetsForTokenFile(b.clientURL(), b.tokenFile)
	}
	s.WriteString(mcp.FormatSnippets(append(http, stdio...)))
	return s.String()
}

// warning is the notice printed first when other machines can reach the
// endpoint; "" when only this one can.
func (b serveBanner) warning() string {
	if !b.binding.Exposed {
		return ""
	}
	where := "on " + b.binding.Addr + ", an address other machines can reach"
	if b.binding.AllInterfaces {
		where = "on all interfaces (" + b.binding.Addr + ")"
	}
	return "WARNING: toolhub listens " + where + ": every machine that reaches this one\n" +
		"WARNING: can connect, and whoever holds the token can run every tool.\n" +
		"WARNING: serve this machine only with --http=127.0.0.1:PORT.\n\n"
}

// writeEndpoint names the URLs the endpoint is reached at.
func (b serveBanner) writeEndpoint(s *strings.Builder) {
	if !b.binding.AllInterfaces {
		fmt.Fprintf(s, "toolhub serves MCP at %s\n", b.clientURL())
		return
	}
	s.WriteString("toolhub serves MCP on all interfaces")
	if len(b.binding.URLs) == 0 {
		fmt.Fprintf(s, " (%s; this host lists no other address), from this machine at %s\n", b.binding.Addr, b.localURL)
		return
	}
	s.WriteString(", at:\n")
	for _, u := range b.binding.URLs {
		fmt.Fprintf(s, "  %s\n", u)
	}
	fmt.Fprintf(s, "  %s (from this machine)\n", b.localURL)
}

// clientURL is the URL the client configurations carry: the first one
// other machines use when there is one.
func (b serveBanner) clientURL() string {
	if len(b.binding.URLs) > 0 {
		return b.binding.URLs[0]
	}
	return b.localURL
}

func catCommand(goos, file string) string {
	if goos == "windows" {
		return "Get-Content " + psQuote(file)
	}
	return "cat " + shQuote(file)
}

func clipboardCommand(goos, file string) string {
	switch goos {
	case "windows":
		return "Get-Content " + psQuote(file) + " | Set-Clipboard"
	case "darwin":
		return "pbcopy < " + shQuote(file)
	default:
		return "wl-copy < " + shQuote(file) + "   (X11: xclip -selection clipboard < " + shQuote(file) + ")"
	}
}

func exportCommand(goos, file string) string {
	if goos == "windows" {
		return "$env:" + mcp.TokenEnvVar + " = Get-Content " + psQuote(file)
	}
	return "export " + mcp.TokenEnvVar + "=\"$(cat " + shQuote(file) + ")\""
}

// shQuote quotes s for a POSIX shell unless it is plain.
func shQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@%+=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// psQuote quotes s for PowerShell.
func psQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// stdioSnippets are the client entries that start this toolhub over stdio.
func (g *globals) stdioSnippets() []mcp.Snippet {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	args := []string{"serve"}
	if g.configPath != "" {
		if abs, err := filepath.Abs(g.configPath); err == nil {
			args = append(args, "--config", abs)
		}
	}
	return mcp.StdioSnippets(exe, args)
}
