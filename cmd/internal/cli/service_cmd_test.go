package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/service"
)

// recordingRunner stands in for systemctl: it records each command line
// and answers is-active with "active".
type recordingRunner struct{ calls []string }

func (r *recordingRunner) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	line := strings.Join(append([]string{name}, args...), " ")
	r.calls = append(r.calls, line)
	if strings.HasSuffix(line, "is-active toolhub.service") {
		return []byte("active\n"), nil
	}
	return nil, nil
}

// fakeLinuxService makes the service commands manage a systemd user unit
// through r, for the binary exe, whatever the test's platform.
func fakeLinuxService(t *testing.T, r *recordingRunner, exe string) {
	if runtime.GOOS == "windows" {
		t.Skip("a systemd unit holds Linux paths, and this system's are not")
	}
	oldNew, oldExe := newService, serviceExecutable
	t.Cleanup(func() { newService, serviceExecutable = oldNew, oldExe })
	newService = func(_ string, opts service.Options) (service.Manager, error) {
		opts.Runner = r
		return service.New("linux", opts)
	}
	serviceExecutable = func() (string, error) { return exe, nil }
}

func runServiceCLI(t *testing.T, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	code := Main(t.Context(), args, Stdio{In: &bytes.Buffer{}, Out: &out, Err: &errOut})
	return out.String(), errOut.String(), code
}

func TestServiceInstallStatusUninstall(t *testing.T) {
	root := t.TempDir()
	xdg := filepath.Join(root, "xdg")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Setenv("TOOLHUB_CONFIG", "")
	cfg := filepath.Join(root, "work", "toolhub.json")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(`{"mcpServers": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &recordingRunner{}
	fakeLinuxService(t, r, "/usr/bin/toolhub")

	out, errOut, code := runServiceCLI(t, "--config", cfg, "service", "install", "--http=127.0.0.1:9100")
	if code != 0 {
		t.Fatalf("install: exit %d, %s%s", code, out, errOut)
	}
	unit := filepath.Join(xdg, "systemd", "user", "toolhub.service")
	data, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	wantExec := `ExecStart="/usr/bin/toolhub" "--config" "` + cfg + `" "--log-level" "info" "serve" "--http=127.0.0.1:9100"`
	if !strings.Contains(string(data), wantExec+"\n") {
		t.Fatalf("unit has no %s:\n%s", wantExec, data)
	}
	if !strings.Contains(out, "http://127.0.0.1:9100/mcp") || !strings.Contains(out, "state: active") {
		t.Fatalf("install printed %q", out)
	}

	out, _, code = runServiceCLI(t, "service", "status", "--json")
	var st service.Status
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || !st.Installed || st.State != "active" || st.File != unit {
		t.Fatalf("status: exit %d, %q", code, out)
	}

	if out, errOut, code = runServiceCLI(t, "service", "uninstall"); code != 0 {
		t.Fatalf("uninstall: exit %d, %s%s", code, out, errOut)
	}
	if _, err := os.Stat(unit); !os.IsNotExist(err) {
		t.Fatalf("the unit survived uninstall: %v", err)
	}
	out, _, _ = runServiceCLI(t, "service", "status")
	if !strings.Contains(out, "installed: false") || !strings.Contains(out, "state: not installed") {
		t.Fatalf("status after uninstall: %q", out)
	}
	if len(r.calls) != 6 {
		t.Fatalf("systemctl calls %q", r.calls)
	}
}

func TestServiceInstallRefusesABrokenConfig(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "xdg"))
	cfg := filepath.Join(root, "bad.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers": `), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &recordingRunner{}
	fakeLinuxService(t, r, "/usr/bin/toolhub")
	if _, _, code := runServiceCLI(t, "--config", cfg, "service", "install"); code == 0 || len(r.calls) != 0 {
		t.Fatalf("install with a broken config: exit %d, calls %q", code, r.calls)
	}
}

func TestServiceStatusOfABinaryThatCannotBeInstalled(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "xdg"))
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Setenv("TOOLHUB_CONFIG", "")
	r := &recordingRunner{}
	fakeLinuxService(t, r, "")
	serviceExecutable = func() (string, error) { return "", errors.New("in the temp directory (go run?)") }
	if out, errOut, code := runServiceCLI(t, "service", "status"); code != 0 || !strings.Contains(out, "installed: false") {
		t.Fatalf("status = %d %q %q; want it answered", code, out, errOut)
	}
	if _, errOut, code := runServiceCLI(t, "service", "install"); code == 0 || !strings.Contains(errOut, "go run?") {
		t.Fatalf("install = %d %q; want the binary refused", code, errOut)
	}
}
