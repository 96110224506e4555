package testenv

import (
	"fmt"
	"os"
	"testing"
)

// TrySymlink makes link point at target and reads it back: an error where
// this system makes no symbolic link that works (Windows without the
// privilege to make one, or Wine, whose links cannot be read).
func TrySymlink(target, link string) error {
	if err := os.Symlink(target, link); err != nil {
		return fmt.Errorf("this system makes no symbolic link here: %w", err)
	}
	if _, err := os.Readlink(link); err != nil {
		return fmt.Errorf("a symbolic link made here cannot be read back: %w", err)
	}
	return nil
}

// Symlink is TrySymlink that skips the test on an error.
func Symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := TrySymlink(target, link); err != nil {
		t.Skip(err)
	}
}

// NameKept reports whether dir lists name byte for byte. A system whose
// file names are UTF-16 (Windows) keeps a name that is not UTF-8 as
// another name.
func NameKept(dir, name string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name() == name {
			return true
		}
	}
	return false
}
