package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// systemd manages a systemd user unit.
type systemd struct{ opts Options }

const unitName = Name + ".service"

// UnitPath is where the user unit goes: $XDG_CONFIG_HOME/systemd/user, or
// ~/.config/systemd/user.
func (s *systemd) UnitPath() string {
	base := s.opts.ConfigHome
	if base == "" {
		base = filepath.Join(s.opts.Home, ".config")
	}
	return filepath.Join(base, "systemd", "user", unitName)
}

// Unit is the content of the user unit running opts' command line. Its
// output goes to the journal (journalctl --user -u toolhub).
func Unit(opts Options) string {
	words := append([]string{opts.Executable}, opts.Args...)
	for i, w := range words {
		words[i] = systemdQuote(w)
	}
	return `[Unit]
Description=toolhub MCP hub (serve --http)
Documentation=https://github.com/toolhub/toolhub
After=network.target

[Service]
Type=simple
ExecStart=` + strings.Join(words, " ") + `
Restart=on-failure
RestartSec=5s
StandardOutput=journal
StandardError=journal

[Install]
WantedBy=default.target
`
}

// systemdQuote double-quotes a word for ExecStart: backslashes and quotes
// are escaped, and % and $ doubled so systemd does not expand them.
func systemdQuote(w string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `%`, `%%`, `$`, `$$`, "\n", `\n`)
	return `"` + r.Replace(w) + `"`
}

func (s *systemd) systemctl(ctx context.Context, args ...string) ([]byte, error) {
	return s.opts.Runner.Run(ctx, "systemctl", append([]string{"--user"}, args...)...)
}

// Install writes the unit, reloads systemd and enables and starts it.
func (s *systemd) Install(ctx context.Context) error {
	if err := writeFileAtomic(s.UnitPath(), []byte(Unit(s.opts))); err != nil {
		return err
	}
	if _, err := s.systemctl(ctx, "daemon-reload"); err != nil {
		return fmt.Errorf("reload systemd: %w", err)
	}
	if _, err := s.systemctl(ctx, "enable", "--now", unitName); err != nil {
		return fmt.Errorf("enable %s: %w", unitName, err)
	}
	return nil
}

// Uninstall stops and disables the unit, removes it and reloads systemd.
// A unit that was never installed is not an error.
func (s *systemd) Uninstall(ctx context.Context) error {
	path := s.UnitPath()
	if !fileExists(path) {
		return nil
	}
	// The unit goes even when systemd cannot be reached, so that a broken
	// install can always be undone; the failure is still reported.
	var errs []error
	if _, err := s.systemctl(ctx, "disable", "--now", unitName); err != nil {
		errs = append(errs, fmt.Errorf("disable %s: %w", unitName, err))
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	if _, err := s.systemctl(ctx, "daemon-reload"); err != nil {
		errs = append(errs, fmt.Errorf("reload systemd: %w", err))
	}
	return errors.Join(errs...)
}

// Status asks systemctl is-active, which exits non-zero for anything but
// active and still prints the state.
func (s *systemd) Status(ctx context.Context) (Status, error) {
	st := Status{File: s.UnitPath(), Logs: "journalctl --user -u " + Name}
	st.Installed = fileExists(st.File)
	if !st.Installed {
		st.State = "not installed"
		return st, nil
	}
	// is-active prints one word (active, inactive, failed, ...) and exits
	// non-zero for all but active; anything else is systemd unreachable.
	out, err := s.systemctl(ctx, "is-active", unitName)
	st.State = firstLine(out)
	if err != nil && (st.State == "" || strings.ContainsRune(st.State, ' ')) {
		st.State = "unknown"
		return st, fmt.Errorf("systemctl is-active: %w", err)
	}
	return st, nil
}

func firstLine(out []byte) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(line)
}
