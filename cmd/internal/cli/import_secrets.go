package cli

import (
	"fmt"
	"strings"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/secrets"
)

// secretMover moves the literal secrets of imported servers into the
// secret store before the config is written, asking once per command
// when stdin is a terminal.
type secretMover struct {
	g        *globals
	store    *secrets.Store
	asked    bool
	approved bool
}

func (g *globals) newSecretMover() *secretMover { return &secretMover{g: g} }

// move rewrites the planned servers so that none holds a literal secret,
// or fails so that nothing is written.
func (m *secretMover) move(plan *config.AddPlan) error {
	pending := config.LiteralSecrets(plan.Servers, plan.Added)
	if len(pending) == 0 {
		return nil
	}
	if m.store == nil {
		store, err := m.g.openSecrets()
		if err != nil {
			return fmt.Errorf("nothing written: the servers hold %s (%s), toolhub copies none into its config, and the secret store cannot be opened: %w",
				conductor.Count(len(pending), "literal secret"), strings.Join(pending, ", "), err)
		}
		m.store = store
	}
	if err := m.ask(pending); err != nil {
		return err
	}
	if !m.approved {
		return usageError("nothing written: toolhub copies no literal secret into its config; answer yes to move them into the secret store, or set them with `toolhub config set-secret` and refer to them as ${keychain:NAME}")
	}
	moved, err := config.MoveLiteralSecrets(plan.Servers, plan.Added, m.store.Set)
	if err != nil {
		return fmt.Errorf("nothing written: %w", err)
	}
	for _, name := range moved {
		fmt.Fprintf(m.g.stdio.Out, "moved   secret %s into the secret store (the config reads ${keychain:%s})\n", name, name)
	}
	return nil
}

// ask asks, once, whether to move the pending secrets; without a terminal
// they are moved, and the command says so.
func (m *secretMover) ask(pending []string) error {
	if m.asked {
		return nil
	}
	m.asked = true
	where := m.store.Backend()
	if _, ok := terminalFd(m.g.stdio.In); !ok {
		fmt.Fprintf(m.g.stdio.Err, "moving %s (%s) into %s: toolhub keeps none in its config (stdin is not a terminal, so not asking)\n",
			conductor.Count(len(pending), "literal secret"), strings.Join(pending, ", "), where)
		m.approved = true
		return nil
	}
	ok, err := confirm(m.g.stdio.In, m.g.stdio.Err, fmt.Sprintf("Move %s (%s) into %s?", conductor.Count(len(pending), "secret"), strings.Join(pending, ", "), where))
	m.approved = ok
	return err
}

// failedSecrets answers every lookup with the reason the store could not
// be opened, so that config check names it for each secret.
type failedSecrets struct{ err error }

func (f failedSecrets) Get(string) (string, error) { return "", f.err }

// configSecrets is the lookup config check resolves ${keychain:...} with.
func (g *globals) configSecrets() config.Secrets {
	store, err := g.openSecrets()
	if err != nil {
		return failedSecrets{err}
	}
	return daemon.SecretLookup(store)
}
