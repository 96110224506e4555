package service

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("%s differs from the golden file (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func unixOptions(home, configHome string, r Runner) Options {
	return Options{
		Executable: "/opt/toolhub/bin/toolhub",
		Args:       []string{"--config", "/home/ada/My Configs/toolhub $HOME 100%.json", "serve", "--http=127.0.0.1:8765"},
		Home:       home, ConfigHome: configHome, UID: 501, Runner: r,
	}
}

func TestUnitGolden(t *testing.T) {
	golden(t, "toolhub.service", Unit(unixOptions("/home/ada", "", nil)))
}

func TestPlistGolden(t *testing.T) {
	opts := unixOptions("/Users/ada", "", nil)
	opts.Args[1] = "/Users/ada/Library/Application Support/toolhub/config.json"
	golden(t, Label+".plist", Plist(opts, "/Users/ada/Library/Logs/toolhub/toolhub.log"))
}

func TestSchtasksGolden(t *testing.T) {
	opts := Options{
		Executable:   `C:\Program Files\toolhub\toolhub.exe`,
		Args:         []string{"--config", `C:\Users\Ada\AppData\Roaming\R&D <toolhub>\config.json`, "serve", "--http=127.0.0.1:8765"},
		LocalAppData: `C:\Users\Ada\AppData\Local`,
		User:         `LAB\ada`,
	}
	golden(t, "schtasks-task.xml", TaskDefinition(opts))
}

func TestSystemdInstallUninstall(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name       string
		configHome bool
		wantDir    string
	}{
		{"XDG_CONFIG_HOME set", true, "xdg/systemd/user"},
		{"XDG_CONFIG_HOME unset", false, "home/.config/systemd/user"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			configHome := ""
			if tc.configHome {
				configHome = filepath.Join(root, "xdg")
			}
			r := &fakeRunner{answers: map[string]fakeAnswer{
				"systemctl --user is-active toolhub.service": {out: "active\n"},
			}}
			m, err := New("linux", unixOptions(filepath.Join(root, "home"), configHome, r))
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Install(ctx); err != nil {
				t.Fatal(err)
			}
			unit := filepath.Join(root, tc.wantDir, "toolhub.service")
			data, err := os.ReadFile(unit)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "toolhub.service", string(data))
			st, err := m.Status(ctx)
			if err != nil || st != (Status{Installed: true, State: "active", File: unit, Logs: "journalctl --user -u toolhub"}) {
				t.Fatalf("Status = %+v, %v", st, err)
			}
			if err := m.Uninstall(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(unit); !os.IsNotExist(err) {
				t.Fatalf("the unit is still there after Uninstall: %v", err)
			}
			want := []string{
				"systemctl --user daemon-reload",
				"systemctl --user enable --now toolhub.service",
				"systemctl --user is-active toolhub.service",
				"systemctl --user disable --now toolhub.service",
				"systemctl --user daemon-reload",
			}
			if !slices.Equal(r.calls, want) {
				t.Fatalf("calls\n%s\nwant\n%s", strings.Join(r.calls, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestSystemdStatus(t *testing.T) {
	cases := []struct {
		name      string
		installed bool
		answer    fakeAnswer
		want      string
		wantErr   bool
	}{
		{"not installed", false, fakeAnswer{}, "not installed", false},
		{"active", true, fakeAnswer{out: "active\n"}, "active", false},
		{"failed exits non-zero", true, fakeAnswer{out: "failed\n", err: errExit}, "failed", false},
		{"no systemd", true, fakeAnswer{err: errExit}, "unknown", true},
		{"no user bus", true, fakeAnswer{out: "Failed to connect to bus: No medium found\n", err: errExit}, "unknown", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			r := &fakeRunner{answers: map[string]fakeAnswer{"systemctl --user is-active toolhub.service": tc.answer}}
			m, _ := New("linux", unixOptions(home, "", r))
			if tc.installed {
				if err := writeFileAtomic(m.(*systemd).UnitPath(), []byte("x")); err != nil {
					t.Fatal(err)
				}
			}
			st, err := m.Status(context.Background())
			if st.State != tc.want || (err != nil) != tc.wantErr {
				t.Fatalf("Status = %+v, %v; want state %q, error %v", st, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestSystemdInstallReportsAFailedEnable(t *testing.T) {
	r := &fakeRunner{answers: map[string]fakeAnswer{
		"systemctl --user enable --now toolhub.service": {err: errExit},
	}}
	m, _ := New("linux", unixOptions(t.TempDir(), "", r))
	if err := m.Install(context.Background()); err == nil || !strings.Contains(err.Error(), "enable toolhub.service") {
		t.Fatalf("Install = %v, want the failed enable", err)
	}
}

func TestSystemdUninstallWithoutSystemdStillRemovesTheUnit(t *testing.T) {
	r := &fakeRunner{answers: map[string]fakeAnswer{
		"systemctl --user disable --now toolhub.service": {err: errExit},
	}}
	m, _ := New("linux", unixOptions(t.TempDir(), "", r))
	unit := m.(*systemd).UnitPath()
	if err := writeFileAtomic(unit, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := m.Uninstall(context.Background()); err == nil || !strings.Contains(err.Error(), "disable toolhub.service") {
		t.Fatalf("Uninstall = %v, want the failed disable", err)
	}
	if _, err := os.Stat(unit); !os.IsNotExist(err) {
		t.Fatalf("the unit survived: %v", err)
	}
}

func TestNewRejectsRelativeExecutableAndUnknownOS(t *testing.T) {
	if _, err := New("linux", Options{Executable: "toolhub"}); err == nil {
		t.Error("a relative executable was accepted")
	}
	if _, err := New("plan9", Options{Executable: "/bin/toolhub"}); err == nil {
		t.Error("plan9 was accepted")
	}
	if _, err := New("windows", Options{Executable: `C:\toolhub.exe`}); err != nil {
		t.Errorf("a Windows path was refused: %v", err)
	}
}
