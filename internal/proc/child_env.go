package proc

import (
	"slices"
	"strings"
)

// envRules is how one platform passes toolhub's environment to a child:
// which variables a child may see, and whether names match whatever their
// case (Windows: Path and PATH are one variable).
type envRules struct {
	names    []string // upper case when foldCase
	prefixes []string
	foldCase bool
}

// unixEnv passes what a shell session needs and nothing else: API keys and
// tokens stay with toolhub; a server that needs more gets it through its
// configured env.
var unixEnv = envRules{
	names:    []string{"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "LANG", "TZ"},
	prefixes: []string{"LC_"},
}

// windowsEnv is the same on Windows, where a program needs more to run at
// all: SYSTEMROOT and WINDIR (DLLs, sockets, crypto), COMSPEC (batch files
// such as npx.cmd), PATHEXT, the profile folders (npm's cache and global
// prefix live under APPDATA and LOCALAPPDATA), TEMP, and the program
// folders. It is a superset of the MCP TypeScript SDK's default for win32.
var windowsEnv = envRules{
	names: []string{
		"PATH", "PATHEXT", "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC",
		"TEMP", "TMP", "USERPROFILE", "USERNAME", "USERDOMAIN", "HOMEDRIVE", "HOMEPATH", "HOME",
		"APPDATA", "LOCALAPPDATA", "PROGRAMDATA", "ALLUSERSPROFILE", "PUBLIC",
		"PROGRAMFILES", "PROGRAMFILES(X86)", "PROGRAMW6432",
		"COMMONPROGRAMFILES", "COMMONPROGRAMFILES(X86)", "COMMONPROGRAMW6432",
		"PROCESSOR_ARCHITECTURE", "NUMBER_OF_PROCESSORS", "OS", "LANG", "TZ",
	},
	foldCase: true,
}

// ChildEnv builds a child's environment: the allow-listed variables of
// parent (in os.Environ form) plus configured, which wins on conflicts
// (on Windows whatever the case of the names). The result is sorted by name.
func ChildEnv(parent []string, configured map[string]string) []string {
	return host.env.childEnv(parent, configured)
}

func (r envRules) childEnv(parent []string, configured map[string]string) []string {
	type entry struct{ name, value string }
	vars := make(map[string]entry, len(r.names)+len(configured))
	for _, kv := range parent {
		name, value, ok := strings.Cut(kv, "=")
		if ok && r.inheritable(name) {
			vars[r.key(name)] = entry{name, value}
		}
	}
	for name, value := range configured {
		vars[r.key(name)] = entry{name, value}
	}
	env := make([]string, 0, len(vars))
	for _, e := range vars {
		env = append(env, e.name+"="+e.value)
	}
	slices.Sort(env)
	return env
}

func (r envRules) key(name string) string {
	if r.foldCase {
		return strings.ToUpper(name)
	}
	return name
}

func (r envRules) inheritable(name string) bool {
	name = r.key(name)
	if slices.Contains(r.names, name) {
		return true
	}
	for _, prefix := range r.prefixes {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// value returns the value of name in env (os.Environ form), or "".
func (r envRules) value(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && r.key(k) == r.key(name) {
			return v
		}
	}
	return ""
}
