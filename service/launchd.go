package service

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// launchd manages a launchd agent in the user's gui domain.
type launchd struct{ opts Options }

// Label is the launchd agent's label and its plist's name.
const Label = "io.github.toolhub.toolhub"

// PlistPath is ~/Library/LaunchAgents/io.github.toolhub.toolhub.plist.
func (l *launchd) PlistPath() string {
	return filepath.Join(l.opts.Home, "Library", "LaunchAgents", Label+".plist")
}

// LogPath is ~/Library/Logs/toolhub/toolhub.log, where the agent's
// stdout and stderr go (Console.app shows it).
func (l *launchd) LogPath() string {
	return filepath.Join(l.opts.Home, "Library", "Logs", Name, Name+".log")
}

// Plist is the agent's property list: it runs opts' command line at load
// (login), restarts it when it fails and sends its output to logPath.
func Plist(opts Options, logPath string) string {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + Label + `</string>
	<key>ProgramArguments</key>
	<array>
`)
	for _, w := range append([]string{opts.Executable}, opts.Args...) {
		b.WriteString("\t\t<string>" + xmlText(w) + "</string>\n")
	}
	b.WriteString(`	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>KeepAlive</key>
	<dict>
		<key>SuccessfulExit</key>
		<false/>
	</dict>
	<key>ThrottleInterval</key>
	<integer>5</integer>
	<key>ProcessType</key>
	<string>Background</string>
	<key>StandardOutPath</key>
	<string>` + xmlText(logPath) + `</string>
	<key>StandardErrorPath</key>
	<string>` + xmlText(logPath) + `</string>
</dict>
</plist>
`)
	return b.String()
}

// xmlText escapes s for an element's text (the plist's and the task's).
func xmlText(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func (l *launchd) domain() string  { return "gui/" + strconv.Itoa(l.opts.UID) }
func (l *launchd) service() string { return l.domain() + "/" + Label }

// Install writes the plist, creates the log directory and (re)loads the
// agent, which starts it.
func (l *launchd) Install(ctx context.Context) error {
	logPath := l.LogPath()
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return fmt.Errorf("create the log directory: %w", err)
	}
	if err := writeFileAtomic(l.PlistPath(), []byte(Plist(l.opts, logPath))); err != nil {
		return err
	}
	// An agent loaded from an older plist must go first; one not loaded
	// makes bootout fail, which is fine.
	_, _ = l.opts.Runner.Run(ctx, "launchctl", "bootout", l.service())
	if _, err := l.opts.Runner.Run(ctx, "launchctl", "bootstrap", l.domain(), l.PlistPath()); err != nil {
		return fmt.Errorf("load the launchd agent: %w", err)
	}
	return nil
}

// Uninstall unloads the agent (stopping it) and removes the plist; the
// logs are kept. An agent that was never installed is not an error.
func (l *launchd) Uninstall(ctx context.Context) error {
	path := l.PlistPath()
	if !fileExists(path) {
		return nil
	}
	_, _ = l.opts.Runner.Run(ctx, "launchctl", "bootout", l.service())
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

var launchdState = regexp.MustCompile(`(?m)^\s*state = (\S+)`)

// Status reads `launchctl print`: "not loaded" when it fails, else its
// state line (running, waiting, ...).
func (l *launchd) Status(ctx context.Context) (Status, error) {
	st := Status{File: l.PlistPath(), Logs: l.LogPath()}
	st.Installed = fileExists(st.File)
	if !st.Installed {
		st.State = "not installed"
		return st, nil
	}
	out, err := l.opts.Runner.Run(ctx, "launchctl", "print", l.service())
	switch m := launchdState.FindSubmatch(out); {
	case err != nil:
		st.State = "not loaded"
	case m != nil:
		st.State = string(m[1])
	default:
		st.State = "loaded"
	}
	return st, nil
}
