package policies

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/toolhub/toolhub/internal/fsutil"
)

// PreferencesFile is the preferences file's name, beside the config file.
const PreferencesFile = "preferences.json"

// PreferencesPath is the preferences file beside configPath; "" when the
// configuration has no file.
func PreferencesPath(configPath string) string {
	if configPath == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(configPath), PreferencesFile)
}

// StoreOptions tune a Store. The zero value is usable.
type StoreOptions struct {
	Logger *slog.Logger // nil: slog.Default()
	// Debounce waits this long after the last change before reloading
	// (default 100ms), so an editor's several writes make one reload.
	Debounce time.Duration
	// OnError hears of every reload that failed (the old preferences stay).
	OnError func(error)
	// NoWatch skips the file watch, for one-shot commands.
	NoWatch bool
}

// Store holds the preferences of one file: read at open, written
// atomically by Save, and reloaded when the file changes on disk. A file
// that turns invalid leaves the last valid preferences in force; Err and
// OnError report why.
type Store struct {
	path string
	opts StoreOptions
	log  *slog.Logger

	mu      sync.Mutex
	current Preferences
	lastErr error
	subs    map[int]func(Preferences)
	nextSub int

	watch *fileWatch // nil with NoWatch
}

// OpenStore reads path (DefaultPreferences when it does not exist) and
// watches it. An invalid file is an error here rather than a silent fall
// back to the defaults, which could be looser than what the user wrote.
func OpenStore(path string, opts StoreOptions) (*Store, error) {
	if path == "" {
		return nil, errors.New("open preferences: no path")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Debounce <= 0 {
		opts.Debounce = 100 * time.Millisecond
	}
	s := &Store{path: path, opts: opts, log: opts.Logger, subs: map[int]func(Preferences){}}
	p, err := readPreferences(path)
	if err != nil {
		return nil, fmt.Errorf("open preferences: %w", err)
	}
	s.current = p
	if !opts.NoWatch {
		w, err := watchFile(path, opts.Debounce, s.reload, s.log)
		if err != nil {
			return nil, fmt.Errorf("open preferences: %w", err)
		}
		s.watch = w
	}
	return s, nil
}

// readPreferences reads and validates path; a missing file gives the defaults.
func readPreferences(path string) (Preferences, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return DefaultPreferences(), nil
	}
	if err != nil {
		return Preferences{}, fmt.Errorf("read %s: %w", path, err)
	}
	return ParsePreferences(path, data)
}

// Path is the file the store reads and writes.
func (s *Store) Path() string { return s.path }

// Current returns the preferences in force.
func (s *Store) Current() Preferences {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current.clone()
}

// Err is why the file on disk is not in force (nil when it is).
func (s *Store) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

// Save validates p, writes it atomically (mode 0600) and puts it in force.
func (s *Store) Save(p Preferences) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("save preferences: %w", err)
	}
	data, err := EncodePreferences(p)
	if err != nil {
		return err
	}
	if err := fsutil.WriteFileAtomic(s.path, data, 0o600); err != nil {
		return fmt.Errorf("save preferences: %w", err)
	}
	s.set(p)
	return nil
}

// Subscribe calls fn with the preferences in force after every change that
// puts different preferences in force, and when the file on disk stops or
// starts being in force (see Err), until cancel is called. fn runs on the
// goroutine that made the change and must not block.
func (s *Store) Subscribe(fn func(Preferences)) (cancel func()) {
	s.mu.Lock()
	id := s.nextSub
	s.nextSub++
	s.subs[id] = fn
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.subs, id)
		s.mu.Unlock()
	}
}

// Close stops watching the file.
func (s *Store) Close() error {
	if s.watch != nil {
		return s.watch.close()
	}
	return nil
}

// reload reads the file after a change on disk.
func (s *Store) reload() {
	p, err := readPreferences(s.path)
	if err == nil {
		if _, statErr := os.Stat(s.path); errors.Is(statErr, fs.ErrNotExist) {
			s.log.Warn("preferences file removed; the last preferences stay in force", "path", s.path)
			return
		}
		s.set(p)
		return
	}
	s.mu.Lock()
	s.lastErr = err
	current, fns := s.current.clone(), s.subscribers()
	s.mu.Unlock()
	s.log.Error("preferences file is invalid; the last valid preferences stay in force", "path", s.path, "err", err)
	if s.opts.OnError != nil {
		s.opts.OnError(err)
	}
	for _, fn := range fns {
		fn(current.clone())
	}
}

// subscribers are the functions to call; under s.mu.
func (s *Store) subscribers() []func(Preferences) {
	fns := make([]func(Preferences), 0, len(s.subs))
	for _, fn := range s.subs {
		fns = append(fns, fn)
	}
	return fns
}

// set puts p in force and tells the subscribers when it differs.
func (s *Store) set(p Preferences) {
	s.mu.Lock()
	changed := !s.current.equal(p) || s.lastErr != nil // a file in force again is news too
	s.current, s.lastErr = p.clone(), nil
	fns := s.subscribers()
	s.mu.Unlock()
	if !changed {
		return
	}
	s.log.Info("preferences changed", "path", s.path, "privacy", p.Privacy)
	for _, fn := range fns {
		fn(p.clone())
	}
}
