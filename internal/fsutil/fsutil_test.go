package fsutil

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestDataDir(t *testing.T) {
	home, elsewhere := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home) // the home directory on Windows
	t.Setenv("LOCALAPPDATA", "")  // so that Windows keeps to it as well
	tests := []struct {
		name, xdg, want string
	}{
		{"absolute XDG_DATA_HOME", elsewhere, filepath.Join(elsewhere, "toolhub")},
		{"relative XDG_DATA_HOME is ignored", "rel/data", filepath.Join(home, ".local", "share", "toolhub")},
		{"unset", "", filepath.Join(home, ".local", "share", "toolhub")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_DATA_HOME", tc.xdg)
			got, err := DataDir()
			if err != nil || got != tc.want {
				t.Fatalf("DataDir() = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestDataDirOf(t *testing.T) {
	// absolute on this machine: C:\home\u on Windows, /home/u elsewhere
	root := filepath.VolumeName(os.TempDir()) + string(filepath.Separator)
	home, appData := filepath.Join(root, "home", "u"), filepath.Join(root, "appdata")
	legacy := filepath.Join(home, ".local", "share", "toolhub")
	tests := []struct {
		name    string
		env     dataDirEnv
		present string // the one directory that exists
		want    string
	}{
		{"unix", dataDirEnv{home: home, localAppData: appData}, "", legacy},
		{"windows", dataDirEnv{home: home, localAppData: appData, windows: true}, "", filepath.Join(appData, "toolhub")},
		{"windows keeps the data of before", dataDirEnv{home: home, localAppData: appData, windows: true}, legacy, legacy},
		{"windows without LOCALAPPDATA", dataDirEnv{home: home, windows: true}, "", legacy},
		{"XDG_DATA_HOME wins on windows too", dataDirEnv{xdg: appData, home: home, windows: true}, legacy, filepath.Join(appData, "toolhub")},
		{"no home and no LOCALAPPDATA", dataDirEnv{windows: true}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := dataDirOf(tc.env, func(path string) bool { return path == tc.present })
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestWriteFileAtomicReplacesWholeAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "prefs.json")
	for _, content := range []string{"first", "second, longer"} {
		if err := WriteFileAtomic(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 { // Windows has no such bits
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only the file", len(entries))
	}
}

func TestWriteFileAtomicFailsIntoAFileAsDirectory(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(filepath.Join(blocker, "x.json"), []byte("x"), 0o600); err == nil {
		t.Fatal("writing below a regular file succeeded")
	}
}
