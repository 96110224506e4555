package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/fsutil"
)

// ErrSecretNotFound is what the secret store answers for a name it lacks.
var ErrSecretNotFound = errors.New("secret not found")

// OpenSecrets opens the secret store beside the config file, in configDir:
// secrets.json, readable by the user alone (0600), rewritten atomically.
func OpenSecrets(configDir string) (*FileSecrets, error) {
	if configDir == "" {
		return nil, errors.New("open secrets: no config directory")
	}
	return &FileSecrets{path: filepath.Join(configDir, "secrets.json")}, nil
}

// Credentials are the OAuth sign-ins kept in the secret store.
func Credentials(s *FileSecrets) *hub.Credentials {
	return hub.NewCredentials(s, ErrSecretNotFound)
}

// FileSecrets keeps secrets as one JSON object in a private file, read
// again on every Get so that a change by another toolhub is seen.
type FileSecrets struct {
	path string
	mu   sync.Mutex
}

// Backend says where the secrets are, in plain words.
func (s *FileSecrets) Backend() string {
	return "file " + s.path + " (mode 0600, readable by you alone)"
}

// Get returns the named secret, or an error matching ErrSecretNotFound.
func (s *FileSecrets) Get(name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, err := s.read()
	if err != nil {
		return "", err
	}
	v, ok := all[name]
	if !ok {
		return "", fmt.Errorf("%s: %w", name, ErrSecretNotFound)
	}
	return v, nil
}

// Set stores the named secret.
func (s *FileSecrets) Set(name, value string) error {
	return s.change(func(all map[string]string) { all[name] = value })
}

// Delete removes the named secret; a missing one is ErrSecretNotFound.
func (s *FileSecrets) Delete(name string) error {
	found := false
	err := s.change(func(all map[string]string) {
		_, found = all[name]
		delete(all, name)
	})
	if err == nil && !found {
		return fmt.Errorf("%s: %w", name, ErrSecretNotFound)
	}
	return err
}

// Names lists the stored names, sorted.
func (s *FileSecrets) Names() ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, err := s.read()
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(all)), nil
}

func (s *FileSecrets) change(fn func(map[string]string)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	all, err := s.read()
	if err != nil {
		return err
	}
	fn(all)
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return fmt.Errorf("write secrets: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("write secrets: %w", err)
	}
	if err := fsutil.WriteFileAtomic(s.path, data, 0o600); err != nil {
		return fmt.Errorf("write secrets: %w", err)
	}
	return nil
}

// read loads the file; a missing file holds no secrets. Its content is
// never quoted in an error.
func (s *FileSecrets) read() (map[string]string, error) {
	all := map[string]string{}
	data, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return all, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read secrets: %w", err)
	}
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, fmt.Errorf("read secrets: %s is not a JSON object of strings", s.path)
	}
	return all, nil
}
