package proc

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// ErrCommandNotFound is returned when a command is on no PATH entry, or
// is an absolute path where no file is (then as a *MissingProgramError).
var ErrCommandNotFound = errors.New("executable file not found in the server's PATH")

// MissingProgramError is a command given as an absolute path where there
// is no program: no file, a folder, or (on Linux and macOS) a file without
// an execute bit. It is an ErrCommandNotFound.
type MissingProgramError struct {
	Path   string
	Reason string // ReasonNoFile when empty
}

// Reasons of a MissingProgramError.
const (
	ReasonNoFile        = "no such file"
	ReasonFolder        = "is a folder, not a program"
	ReasonNotExecutable = "is not executable (no execute permission)"
)

func (e *MissingProgramError) Error() string {
	if e.Reason == "" {
		return ReasonNoFile
	}
	return e.Reason
}

// NoFile reports whether nothing is at the path, as against something
// that is not a program.
func (e *MissingProgramError) NoFile() bool { return e.Reason == "" || e.Reason == ReasonNoFile }

// Is makes errors.Is(err, ErrCommandNotFound) hold.
func (e *MissingProgramError) Is(target error) bool { return target == ErrCommandNotFound }

// LookPath resolves command the way a shell would with the child's
// environment env (ChildEnv's result), not toolhub's: a configured PATH
// must decide which binary runs. Relative PATH entries are skipped.
//
// On Linux and macOS a command containing a slash is returned unchanged,
// and a PATH entry must hold it as an executable regular file.
//
// On Windows, as cmd.exe does, a command without an extension is tried
// with each of PATHEXT's (".COM;.EXE;.BAT;.CMD" when unset): "npx" is
// npx.cmd, the file npm installs. A command containing \, / or a drive
// colon is a path, tried as it is and with those extensions.
func LookPath(command string, env []string) (string, error) {
	return host.lookPath(command, env)
}

// lookupRules is one platform's way of finding a command.
type lookupRules struct {
	env     envRules
	windows bool
}

func (r lookupRules) lookPath(command string, env []string) (string, error) {
	pathList := r.env.value(env, "PATH")
	if !r.windows {
		if strings.Contains(command, "/") {
			return r.asPath(command)
		}
		for _, dir := range filepath.SplitList(pathList) {
			if dir == "" || !filepath.IsAbs(dir) {
				continue
			}
			if candidate := filepath.Join(dir, command); isExecutable(candidate) {
				return candidate, nil
			}
		}
		return "", ErrCommandNotFound
	}
	exts := pathExts(r.env.value(env, "PATHEXT"))
	if strings.ContainsAny(command, `:\/`) {
		if found, ok := withExtension(command, exts); ok {
			return found, nil
		}
		return r.asPath(command)
	}
	for _, dir := range splitWindowsList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		if found, ok := withExtension(filepath.Join(dir, command), exts); ok {
			return found, nil
		}
	}
	return "", ErrCommandNotFound
}

// asPath is command given as a path: an absolute one where no file is
// fails here, as a command on no PATH entry does; a relative one is left to
// the start, which knows the working directory.
func (r lookupRules) asPath(command string) (string, error) {
	if !filepath.IsAbs(command) && !(r.windows && IsWindowsAbs(command)) {
		return command, nil
	}
	info, err := os.Stat(command)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", &MissingProgramError{Path: command, Reason: ReasonNoFile}
	case err != nil: // unreadable: left to the start, which says why
	case info.IsDir():
		return "", &MissingProgramError{Path: command, Reason: ReasonFolder}
	case !r.windows && info.Mode().IsRegular() && info.Mode()&0o111 == 0:
		return "", &MissingProgramError{Path: command, Reason: ReasonNotExecutable}
	}
	return command, nil
}

// IsWindowsAbs reports whether p is an absolute Windows path, whichever
// system asks: a drive path (C:\...) or a UNC path (\\server\share).
func IsWindowsAbs(p string) bool {
	drive := len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
	return drive || strings.HasPrefix(p, `\\`)
}

// isExecutable reports whether path is a regular file with an execute bit.
func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0
}

// withExtension finds path as a Windows program: path itself when it has
// an extension already, else path with the first of exts that exists (as
// Go's exec.LookPath does on Windows). Windows has no execute bit; any
// regular file qualifies.
func withExtension(path string, exts []string) (string, bool) {
	if hasExtension(path) && isRegular(path) {
		return path, true
	}
	for _, ext := range exts {
		if isRegular(path + ext) {
			return path + ext, true
		}
	}
	return "", false
}

func isRegular(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// hasExtension reports whether the last element of a Windows path has a dot.
func hasExtension(path string) bool {
	dot := strings.LastIndex(path, ".")
	return dot >= 0 && strings.LastIndexAny(path, `:\/`) < dot
}

// pathExts is PATHEXT as lower-case extensions with their dot.
func pathExts(pathext string) []string {
	var exts []string
	for _, ext := range strings.Split(strings.ToLower(pathext), ";") {
		ext = strings.TrimSpace(ext)
		if ext == "" {
			continue
		}
		if ext[0] != '.' {
			ext = "." + ext
		}
		exts = append(exts, ext)
	}
	if len(exts) == 0 {
		return []string{".com", ".exe", ".bat", ".cmd"}
	}
	return exts
}

// splitWindowsList splits a Windows PATH at its semicolons, outside double
// quotes, dropping the quotes ("C:\Program Files\nodejs" may be quoted).
func splitWindowsList(list string) []string {
	var dirs []string
	var cur strings.Builder
	quoted := false
	for _, c := range list {
		switch {
		case c == '"':
			quoted = !quoted
		case c == ';' && !quoted:
			dirs = append(dirs, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(c)
		}
	}
	return append(dirs, cur.String())
}
