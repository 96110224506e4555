package service

import "testing"

// TestNewWantsAnAbsoluteExecutableForItsSystem: the executable is checked
// as a path of the system the service is for, whichever system checks it.
func TestNewWantsAnAbsoluteExecutableForItsSystem(t *testing.T) {
	tests := []struct {
		name, goos, exe string
		ok              bool
	}{
		{"unix path for linux", "linux", "/usr/local/bin/toolhub", true},
		{"unix path for darwin", "darwin", "/opt/toolhub/bin/toolhub", true},
		{"relative for linux", "linux", "bin/toolhub", false},
		{"drive path for linux", "linux", `C:\toolhub\toolhub.exe`, false},
		{"drive path for windows", "windows", `C:\toolhub\toolhub.exe`, true},
		{"drive path with slashes for windows", "windows", "C:/toolhub/toolhub.exe", true},
		{"share for windows", "windows", `\\server\tools\toolhub.exe`, true},
		{"unix path for windows", "windows", "/opt/toolhub/toolhub.exe", false},
		{"drive-relative for windows", "windows", `C:toolhub.exe`, false},
		{"empty", "linux", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.goos, Options{Executable: tt.exe, Runner: &fakeRunner{}})
			if (err == nil) != tt.ok {
				t.Fatalf("New(%q, %q) = %v, want ok %v", tt.goos, tt.exe, err, tt.ok)
			}
		})
	}
}
