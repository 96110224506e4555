package service

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"strings"
)

// schtasks manages a Windows scheduled task that starts at logon.
type schtasks struct{ opts Options }

// TaskLogPath is %LOCALAPPDATA%\toolhub\toolhub.log, where the task's
// toolhub writes its logs (--log-file): Windows discards a scheduled
// task's own output.
func TaskLogPath(opts Options) string {
	base := strings.TrimRight(opts.LocalAppData, `\/`)
	if base == "" {
		base = strings.TrimRight(opts.Home, `\/`) + `\AppData\Local`
	}
	return base + `\` + Name + `\` + Name + ".log"
}

// TaskArguments are the task's program arguments: `service run`, which
// keeps `toolhub serve` running (a scheduled task does not restart a
// program that fails), its logs sent to TaskLogPath, each word quoted the
// way Windows programs split them.
func TaskArguments(opts Options) string {
	words := append([]string{"--log-file", TaskLogPath(opts), "service", "run", "--"}, opts.Args...)
	for i, w := range words {
		words[i] = windowsQuote(w)
	}
	return strings.Join(words, " ")
}

// windowsQuote quotes w for CommandLineToArgvW when it needs it.
func windowsQuote(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t\"") {
		return w
	}
	var b strings.Builder
	b.WriteByte('"')
	slashes := 0
	for _, r := range w {
		switch r {
		case '\\':
			slashes++
			continue
		case '"':
			b.WriteString(strings.Repeat(`\`, 2*slashes+1))
		default:
			b.WriteString(strings.Repeat(`\`, slashes))
		}
		slashes = 0
		b.WriteRune(r)
	}
	b.WriteString(strings.Repeat(`\`, 2*slashes))
	b.WriteByte('"')
	return b.String()
}

// CreateArgs are schtasks' arguments to create (or replace) the task from
// the definition in the file xmlPath (TaskXML).
func CreateArgs(xmlPath string) []string {
	return []string{"/Create", "/F", "/TN", Name, "/XML", xmlPath}
}

// Install creates the task and starts it now. The task is defined in XML
// because schtasks' own options cannot lift the limits a task gets by
// default: it would be stopped after 72 hours, not start on battery power
// and be stopped when the power cable is pulled.
func (s *schtasks) Install(ctx context.Context) error {
	path, err := writeTaskXML(s.opts)
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(path) }()
	if _, err := s.opts.Runner.Run(ctx, "schtasks", CreateArgs(path)...); err != nil {
		return fmt.Errorf("create the scheduled task: %w", err)
	}
	if _, err := s.opts.Runner.Run(ctx, "schtasks", "/Run", "/TN", Name); err != nil {
		return fmt.Errorf("start the scheduled task: %w", err)
	}
	return nil
}

// writeTaskXML writes the task's definition to a file of its own in the
// temp folder, for schtasks to read.
func writeTaskXML(opts Options) (string, error) {
	f, err := os.CreateTemp("", Name+"-task-*.xml")
	if err != nil {
		return "", fmt.Errorf("write the task definition: %w", err)
	}
	_, err = f.Write(TaskXML(opts))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return "", fmt.Errorf("write the task definition: %w", err)
	}
	return f.Name(), nil
}

// Uninstall ends the running task and deletes it. A task that does not
// exist is not an error.
func (s *schtasks) Uninstall(ctx context.Context) error {
	if st, err := s.Status(ctx); err == nil && !st.Installed {
		return nil
	}
	_, _ = s.opts.Runner.Run(ctx, "schtasks", "/End", "/TN", Name)
	if _, err := s.opts.Runner.Run(ctx, "schtasks", "/Delete", "/F", "/TN", Name); err != nil {
		return fmt.Errorf("delete the scheduled task: %w", err)
	}
	return nil
}

// Status queries the task; a failed query means it does not exist.
func (s *schtasks) Status(ctx context.Context) (Status, error) {
	st := Status{Logs: TaskLogPath(s.opts)}
	out, err := s.opts.Runner.Run(ctx, "schtasks", "/Query", "/TN", Name, "/FO", "CSV", "/NH")
	if err != nil {
		st.State = "not installed"
		return st, nil
	}
	st.Installed = true
	st.State = TaskState(out)
	return st, nil
}

// TaskState reads the Status column of `schtasks /Query /FO CSV /NH`
// ("TaskName","Next Run Time","Status"): Ready, Running, Disabled...
func TaskState(out []byte) string {
	rec, err := csv.NewReader(strings.NewReader(strings.TrimSpace(string(out)))).Read()
	if err != nil || len(rec) < 3 {
		return "unknown"
	}
	return strings.TrimSpace(rec[2])
}
