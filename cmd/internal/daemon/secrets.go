package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolhub/toolhub/config"
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

// configSecrets is the Secrets the daemon resolves references with: the
// given one, else the store beside the config. A store that cannot be
// opened is logged, and only the servers that need a secret stay down.
func configSecrets(opts Options) config.Secrets {
	if opts.Secrets != nil {
		return opts.Secrets
	}
	if opts.Config.Path == "" {
		return nil
	}
	store, err := OpenSecrets(opts.Config.Path)
	if err != nil {
		opts.Logger.Warn("secret store cannot be opened; servers that use ${keychain:...} stay down", "error", err)
		return nil
	}
	opts.Logger.Debug("secret store", "backend", store.Backend())
	return SecretLookup(store)
}
