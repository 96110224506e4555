package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/secrets"
)

// maxSecretSize bounds a value read from stdin.
const maxSecretSize = 64 << 10

func newConfigSetSecretCommand(g *globals) *cobra.Command {
	var del bool
	cmd := &cobra.Command{
		Use:   "set-secret SERVER NAME | set-secret SECRET",
		Short: "Store a secret that the config reads as ${keychain:SERVER.NAME}",
		Long: `Stores a value, such as an API key, that the config refers to as
${keychain:SERVER.NAME} in an "env" or "headers" value, so that the value
itself is never written in the config. With two arguments the secret is named
SERVER.NAME (the name toolhub's messages and imports use); with one, it is
named exactly SECRET.

The value is read from stdin: typed without echo when stdin is a terminal,
else read whole from the pipe (one trailing newline is dropped). It is never
printed. --delete removes the secret instead (a secret that is not there is
not an error).

Secrets are kept in the system keychain (Secret Service on Linux, Keychain on
macOS, Credential Manager on Windows); when none answers, in secrets.json
(mode 0600, not encrypted) beside the config. $` + daemon.SecretsBackendEnv + `
chooses: auto (the default), keychain or file. A server whose secret is not
set is listed as invalid and the others start; a running toolhub reads the
new value when it next starts.`,
		Example: `  toolhub config set-secret github GITHUB_TOKEN
  printf %s "$TOKEN" | toolhub config set-secret github GITHUB_TOKEN
  toolhub config set-secret --delete github GITHUB_TOKEN`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(_ *cobra.Command, args []string) error {
			name := args[0]
			if len(args) == 2 {
				if msg := config.ServerNameProblem(args[0]); msg != "" {
					return usageError("server name %q: %s", args[0], msg)
				}
				name = config.SecretName(args[0], args[1])
			}
			if err := secrets.CheckName(name); err != nil {
				return asUsage(err)
			}
			store, err := g.openSecrets()
			if err != nil {
				return err
			}
			if del {
				if err := store.Delete(name); err != nil {
					return err
				}
				fmt.Fprintf(g.stdio.Out, "deleted secret %s from %s\n", name, store.Backend())
				return nil
			}
			value, err := g.readSecret(name)
			if err != nil {
				return err
			}
			if err := store.Set(name, value); err != nil {
				return err
			}
			fmt.Fprintf(g.stdio.Out, "stored secret %s (%s) in %s\n", name, conductor.Count(len(value), "byte"), store.Backend())
			fmt.Fprintf(g.stdio.Err, "the config reads it as ${keychain:%s}\n", name)
			return nil
		},
	}
	cmd.Flags().BoolVar(&del, "delete", false, "remove the secret instead of storing one")
	return cmd
}

// openSecrets opens the secret store beside the config.
func (g *globals) openSecrets() (*secrets.Store, error) {
	path, _, err := g.locateConfig()
	if err != nil {
		return nil, err
	}
	return daemon.OpenSecrets(path)
}

// readSecret reads a value from stdin: without echo from a terminal, else
// the whole of the pipe.
func (g *globals) readSecret(name string) (string, error) {
	var value string
	if fd, ok := terminalFd(g.stdio.In); ok {
		fmt.Fprintf(g.stdio.Err, "value for %s (not shown): ", name)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(g.stdio.Err)
		if err != nil {
			return "", fmt.Errorf("read the value: %w", err)
		}
		value = string(b)
	} else {
		b, err := io.ReadAll(io.LimitReader(g.stdio.In, maxSecretSize+1))
		if err != nil {
			return "", fmt.Errorf("read the value from stdin: %w", err)
		}
		if len(b) > maxSecretSize {
			return "", usageError("the value on stdin is larger than %d bytes", maxSecretSize)
		}
		value = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	}
	if value == "" {
		return "", usageError("empty value: nothing stored (pipe the value in, or type it at the prompt; --delete removes a secret)")
	}
	return value, nil
}

// terminalFd returns the descriptor of in when it is a terminal.
func terminalFd(in io.Reader) (int, bool) {
	f, ok := in.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0, false
	}
	return int(f.Fd()), true
}

// confirm asks question on out and reads the answer from in; an empty
// answer is yes.
func confirm(in io.Reader, out io.Writer, question string) (bool, error) {
	fmt.Fprintf(out, "%s [Y/n] ", question)
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return false, fmt.Errorf("read the answer: %w", err)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "", "y", "yes":
		return true, nil
	}
	return false, nil
}
