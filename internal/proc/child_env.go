package proc

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// inheritedEnvNames are toolhub's variables a child may see. Anything
// else (API keys, tokens) stays with toolhub; a server that needs more gets
// it through its configured env.
var inheritedEnvNames = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "LANG", "TZ",
}

// inheritedEnvPrefixes are variable-name prefixes passed through as well.
var inheritedEnvPrefixes = []string{"LC_"}

// ChildEnv builds a child's environment: the allow-listed variables of
// parent (in os.Environ form) plus configured, which wins on conflicts. The
// result is sorted by name.
func ChildEnv(parent []string, configured map[string]string) []string {
	vars := make(map[string]string, len(inheritedEnvNames)+len(configured))
	for _, kv := range parent {
		name, value, ok := strings.Cut(kv, "=")
		if ok && inheritable(name) {
			vars[name] = value
		}
	}
	for name, value := range configured {
		vars[name] = value
	}
	env := make([]string, 0, len(vars))
	for name, value := range vars {
		env = append(env, name+"="+value)
	}
	slices.Sort(env)
	return env
}

func inheritable(name string) bool {
	if slices.Contains(inheritedEnvNames, name) {
		return true
	}
	for _, prefix := range inheritedEnvPrefixes {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// envValue returns the value of name in env (os.Environ form).
func envValue(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// ErrCommandNotFound is returned when a command is on no PATH entry.
var ErrCommandNotFound = errors.New("executable file not found in the server's PATH")

// LookPath resolves command the way a shell would with the child's PATH,
// not toolhub's: a configured PATH must decide which binary runs. Commands
// containing a slash are returned unchanged; relative PATH entries are
// skipped.
func LookPath(command, pathList string) (string, error) {
	if strings.Contains(command, "/") {
		return command, nil
	}
	for _, dir := range filepath.SplitList(pathList) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		candidate := filepath.Join(dir, command)
		if info, err := os.Stat(candidate); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return candidate, nil
		}
	}
	return "", ErrCommandNotFound
}
