package service

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLaunchdInstallUninstall(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	r := &fakeRunner{answers: map[string]fakeAnswer{
		"launchctl bootout gui/501/" + Label: {err: errExit}, // not loaded yet
		"launchctl print gui/501/" + Label:   {out: "gui/501/io.github.toolhub.toolhub = {\n\tactive count = 1\n\tstate = running\n}\n"},
	}}
	m, err := New("darwin", unixOptions(home, "", r))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Install(ctx); err != nil {
		t.Fatal(err)
	}
	plist := filepath.Join(home, "Library", "LaunchAgents", Label+".plist")
	data, err := os.ReadFile(plist)
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(home, "Library", "Logs", "toolhub", "toolhub.log")
	if want := Plist(unixOptions(home, "", nil), logPath); string(data) != want {
		t.Fatalf("plist\n%s\nwant\n%s", data, want)
	}
	if info, err := os.Stat(filepath.Dir(logPath)); err != nil || !info.IsDir() {
		t.Fatalf("log directory: %v", err)
	}
	st, err := m.Status(ctx)
	if err != nil || st != (Status{Installed: true, State: "running", File: plist, Logs: logPath}) {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	if err := m.Uninstall(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(plist); !os.IsNotExist(err) {
		t.Fatalf("the plist is still there: %v", err)
	}
	want := []string{
		"launchctl bootout gui/501/" + Label,
		"launchctl bootstrap gui/501 " + plist,
		"launchctl print gui/501/" + Label,
		"launchctl bootout gui/501/" + Label,
	}
	if !slices.Equal(r.calls, want) {
		t.Fatalf("calls\n%s\nwant\n%s", strings.Join(r.calls, "\n"), strings.Join(want, "\n"))
	}
}

func TestLaunchdStatusNotLoaded(t *testing.T) {
	home := t.TempDir()
	r := &fakeRunner{answers: map[string]fakeAnswer{"launchctl print gui/501/" + Label: {err: errExit}}}
	m, _ := New("darwin", unixOptions(home, "", r))
	if err := writeFileAtomic(m.(*launchd).PlistPath(), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if st, err := m.Status(context.Background()); err != nil || st.State != "not loaded" || !st.Installed {
		t.Fatalf("Status = %+v, %v", st, err)
	}
}
