package service

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
)

// Name is the service's name: the unit, the task and the log file.
const Name = "toolhub"

// Runner runs one command of the platform's service manager and returns
// its combined output.
type Runner interface {
	Run(ctx context.Context, name string, args ...string) ([]byte, error)
}

// ExecRunner runs commands for real, each bounded by Timeout (default 30s).
type ExecRunner struct{ Timeout time.Duration }

// Run runs name with args.
func (r ExecRunner) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return out, nil
}

// Options describe the service to install and where.
type Options struct {
	// Executable is the toolhub binary the service runs (absolute).
	Executable string
	// Args follow the executable: --config PATH serve --http=ADDR.
	Args []string
	// Home is the user's home directory; ConfigHome is $XDG_CONFIG_HOME
	// (empty: Home/.config). LocalAppData is %LOCALAPPDATA% on Windows.
	Home, ConfigHome, LocalAppData string
	// UID is the user's id, for launchctl's gui/UID domain.
	UID int
	// User is the Windows account (DOMAIN\name) whose logon starts the
	// task; empty: any user's logon, the task running as its creator.
	User string
	// Runner reaches the service manager.
	Runner Runner
}

// Status is what Manager.Status found.
type Status struct {
	// Installed: the unit, plist or task exists.
	Installed bool `json:"installed"`
	// State is the service manager's word for it (active, running, ...).
	State string `json:"state"`
	// File is the unit or plist (empty for a scheduled task).
	File string `json:"file,omitempty"`
	// Logs says where the output goes.
	Logs string `json:"logs"`
}

// Manager installs, removes and reports on the service.
type Manager interface {
	Install(ctx context.Context) error
	Uninstall(ctx context.Context) error
	Status(ctx context.Context) (Status, error)
}

// New returns the Manager for goos ("linux", "darwin" or "windows").
func New(goos string, opts Options) (Manager, error) {
	if !absoluteOn(goos, opts.Executable) {
		return nil, fmt.Errorf("service executable %q: want an absolute path", opts.Executable)
	}
	if opts.Runner == nil {
		opts.Runner = ExecRunner{}
	}
	switch goos {
	case "linux":
		return &systemd{opts: opts}, nil
	case "darwin":
		return &launchd{opts: opts}, nil
	case "windows":
		return &schtasks{opts: opts}, nil
	}
	return nil, fmt.Errorf("no user service support on %s", goos)
}

// absoluteOn reports whether p is an absolute path on goos, whichever
// system checks it: a drive or a share on Windows, a slash elsewhere.
func absoluteOn(goos, p string) bool {
	if goos != "windows" {
		return strings.HasPrefix(p, "/")
	}
	return proc.IsWindowsAbs(p)
}

// fileExists reports whether path is there; other errors count as there.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, os.ErrNotExist)
}
