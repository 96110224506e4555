package secrets

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// ErrNotFound is returned (wrapped) by Get for a name that has no secret.
var ErrNotFound = errors.New("secret not found")

// The backends Options.Backend may name.
const (
	BackendAuto     = "auto"
	BackendKeychain = "keychain"
	BackendFile     = "file"
)

// File names in Options.Dir.
const (
	secretsFile = "secrets.json"       // the fallback store
	indexFile   = "secrets-index.json" // names kept in the keychain
	lockFile    = "secrets.lock"
)

// Options say where a Store keeps its secrets.
type Options struct {
	Service string // keychain service name; "" means "toolhub"
	Dir     string // folder for the fallback file (the toolhub config dir); required
	Backend string // "auto" (default: keychain when one answers, else file), "keychain", "file"
}

// Store reads and writes secrets by name.
type Store struct {
	mu      sync.Mutex // orders this process's changes; the file lock orders processes
	service string
	ring    keyring // nil when the secrets live in the file
	file    *fileStore
	index   *fileStore // names of the secrets in the keychain
	why     string     // why the file is used, for Backend
}

// Open opens the store that opts describe. With "auto" the keychain is
// asked once, with a short timeout, and the fallback file is used when it
// does not answer; "keychain" fails instead.
func Open(opts Options) (*Store, error) {
	return open(opts, systemKeyring{}, probeTimeout)
}

// probeTimeout bounds the first question to the keychain: a session
// without D-Bus, or a locked keychain waiting for a prompt, must not hang
// toolhub.
const probeTimeout = 3 * time.Second

func open(opts Options, ring keyring, probeWait time.Duration) (*Store, error) {
	if opts.Dir == "" {
		return nil, errors.New("open secrets: no folder given for the fallback file")
	}
	if opts.Service == "" {
		opts.Service = "toolhub"
	}
	lock := filepath.Join(opts.Dir, lockFile)
	s := &Store{
		service: opts.Service,
		file:    &fileStore{path: filepath.Join(opts.Dir, secretsFile), lock: lock},
		index:   &fileStore{path: filepath.Join(opts.Dir, indexFile), lock: lock},
	}
	switch opts.Backend {
	case "", BackendAuto:
		if err := probe(ring, opts.Service, probeWait); err != nil {
			s.why = "no keychain answered: " + plainProbeError(err)
			return s, nil
		}
		s.ring = ring
	case BackendKeychain:
		if err := probe(ring, opts.Service, probeWait); err != nil {
			return nil, fmt.Errorf("open secrets: the system keychain did not answer: %w", err)
		}
		s.ring = ring
	case BackendFile:
		s.why = "the file backend was chosen"
	default:
		return nil, fmt.Errorf("open secrets: backend %q: want auto, keychain or file", opts.Backend)
	}
	return s, nil
}

// Backend says in plain words where the secrets are kept.
func (s *Store) Backend() string {
	if s.ring != nil {
		return "system keychain (" + keychainName() + ")"
	}
	return fmt.Sprintf("file %s (mode 0600, not encrypted: %s)", s.file.path, s.why)
}

// Get returns the secret stored as name; an error wrapping ErrNotFound
// when there is none.
func (s *Store) Get(name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ring != nil {
		v, err := ringGet(s.ring, s.service, name)
		if err != nil {
			return "", fmt.Errorf("secret %q: %w", name, err)
		}
		return v, nil
	}
	values, err := s.file.read()
	if err != nil {
		return "", err
	}
	v, ok := values[name]
	if !ok {
		return "", fmt.Errorf("secret %q: %w", name, ErrNotFound)
	}
	return v, nil
}

// Set stores value as name, replacing any secret of that name.
func (s *Store) Set(name, value string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ring == nil {
		return s.file.update(func(m map[string]string) { m[name] = value })
	}
	if err := ringSet(s.ring, s.service, name, value); err != nil {
		return fmt.Errorf("store secret %q in the keychain: %w", name, err)
	}
	return s.index.update(func(m map[string]string) { m[name] = "" })
}

// Delete removes the secret stored as name; a name without a secret is
// not an error.
func (s *Store) Delete(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ring == nil {
		return s.file.update(func(m map[string]string) { delete(m, name) })
	}
	if err := ringDelete(s.ring, s.service, name); err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("delete secret %q from the keychain: %w", name, err)
	}
	return s.index.update(func(m map[string]string) { delete(m, name) })
}

// Names lists the names of the secrets toolhub stored, sorted.
func (s *Store) Names() ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.file
	if s.ring != nil {
		f = s.index
	}
	values, err := f.read()
	if err != nil {
		return nil, err
	}
	return sortedKeys(values), nil
}

// CheckName says why name cannot name a secret, or returns nil: 1 to 200
// letters, digits and . _ - : @ / +.
func CheckName(name string) error {
	if name == "" || len(name) > 200 {
		return fmt.Errorf("secret name %q: want 1 to 200 characters", clip(name))
	}
	for _, c := range name {
		if !strings.ContainsRune(nameChars, c) {
			return fmt.Errorf("secret name %q: %q is not allowed (use letters, digits and . _ - : @ / +)", clip(name), c)
		}
	}
	return nil
}

const nameChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:@/+"

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
