package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/secrets"
)

// SecretsBackendEnv chooses where secrets are kept: "auto" (the default:
// the system keychain when one answers, else a file), "keychain" or "file".
const SecretsBackendEnv = "TOOLHUB_SECRETS_BACKEND"

// OpenSecrets opens the secret store of the config at configPath: the
// system keychain, or secrets.json in the config's folder.
func OpenSecrets(configPath string) (*secrets.Store, error) {
	if configPath == "" {
		return nil, errors.New("open secrets: the config has no file, so there is no folder for the store")
	}
	return secrets.Open(secrets.Options{
		Dir:     filepath.Dir(configPath),
		Backend: os.Getenv(SecretsBackendEnv),
	})
}

// SecretLookup lets the config read ${keychain:NAME} references from store.
func SecretLookup(store *secrets.Store) config.Secrets {
	return secretLookup{store}
}

type secretLookup struct{ store *secrets.Store }

func (l secretLookup) Get(name string) (string, error) {
	v, err := l.store.Get(name)
	if errors.Is(err, secrets.ErrNotFound) {
		return "", fmt.Errorf("%w: %w", config.ErrSecretNotSet, err)
	}
	return v, err
}

// Credentials are the OAuth sign-ins kept in store, under oauth:SERVER.
func Credentials(store *secrets.Store) *hub.Credentials {
	return hub.NewCredentials(store, secrets.ErrNotFound)
}

// withSecrets fills what opts leaves out from the store beside the config:
// the Secrets that ${keychain:NAME} references are read from, and the
// hub's OAuth credentials. A store that cannot be opened is logged, and
// only the servers that need a secret or a sign-in stay down.
func withSecrets(opts Options) Options {
	if (opts.Secrets != nil && opts.HubOptions.Credentials != nil) || opts.Config.Path == "" {
		return opts
	}
	store, err := OpenSecrets(opts.Config.Path)
	if err != nil {
		opts.Logger.Warn("secret store cannot be opened; servers that use ${keychain:...} or sign-in stay down", "error", err)
		return opts
	}
	opts.Logger.Debug("secret store", "backend", store.Backend())
	if opts.Secrets == nil {
		opts.Secrets = SecretLookup(store)
	}
	if opts.HubOptions.Credentials == nil {
		opts.HubOptions.Credentials = Credentials(store)
	}
	return opts
}
