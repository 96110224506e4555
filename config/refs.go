package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Secrets looks up the values of ${keychain:NAME} references. Get returns
// an error wrapping ErrSecretNotSet for a name that has no value; any other
// error means the store could not be read.
type Secrets interface {
	Get(name string) (string, error)
}

// ErrSecretNotSet is the error a Secrets wraps for a name without a value.
var ErrSecretNotSet = errors.New("secret not set")

// Lookup is where the references in env and headers values are resolved.
type Lookup struct {
	// Env resolves ${NAME} (os.LookupEnv in production; nil: none is set).
	Env func(string) (string, bool)
	// Secrets resolves ${keychain:NAME}; nil makes every such reference a
	// problem.
	Secrets Secrets
}

// keychainPrefix starts a secret reference: ${keychain:NAME}.
const keychainPrefix = "keychain:"

// unresolved is a well-formed reference that has no value.
type unresolved struct {
	name   string
	secret bool
	err    error // why a secret has no value
}

// message says what is missing and how to fix it, never a value.
func (u unresolved) message() string {
	if !u.secret {
		return fmt.Sprintf("environment variable %s is not set (set it, or write ${%s:-default})", u.name, u.name)
	}
	if errors.Is(u.err, ErrSecretNotSet) {
		return fmt.Sprintf("secret %q is not set: run %s", u.name, SetSecretCommand(u.name))
	}
	return fmt.Sprintf("secret %q cannot be read: %v", u.name, u.err)
}

// SecretName is the name under which the value of key (an env variable,
// a header, a VS Code input) of server is kept: "SERVER.KEY". Server names
// have no ".", so the first "." splits it again. Characters a secret's
// name cannot hold, and ":", become "-"; the name is cut to 200 bytes.
func SecretName(server, key string) string {
	b := []byte(key)
	for i, c := range b {
		if c == ':' || !strings.ContainsRune(secretNameChars, rune(c)) {
			b[i] = '-'
		}
	}
	name := server + "." + string(b)
	if len(name) > 200 {
		name = name[:200]
	}
	return name
}

// SetSecretCommand is the command that stores the secret name.
func SetSecretCommand(name string) string {
	if server, key, ok := strings.Cut(name, "."); ok && nameProblem(server) == "" && key != "" {
		return "toolhub config set-secret " + server + " " + key
	}
	return "toolhub config set-secret " + name
}

// secretNameChars may appear in a secret's name (the secrets package
// allows the same).
const secretNameChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-:@/+"

// isSecretName reports whether s can name a secret in a reference.
func isSecretName(s string) bool {
	if s == "" || len(s) > 200 || strings.Contains(s, ":-") {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune(secretNameChars, c) {
			return false
		}
	}
	return true
}

// expandEnv is expand with environment variables only; it returns the
// names of the unset ones. A ${keychain:...} reference is an error here.
func expandEnv(s string, lookup func(string) (string, bool)) (string, []string, error) {
	out, missing, err := expand(s, Lookup{Env: lookup})
	if err != nil {
		return "", nil, err
	}
	var unset []string
	for _, m := range missing {
		if m.secret {
			return "", nil, fmt.Errorf("${keychain:%s}: secrets are not read here", clip(m.name))
		}
		unset = append(unset, m.name)
	}
	return out, unset, nil
}

// expand replaces ${NAME}, ${NAME:-default} and ${keychain:NAME} in s. The
// default is used when NAME is unset or empty, as in the shell. $${ stands
// for a literal ${ (as in Docker Compose): "$${HOME}" gives "${HOME}".
// Substituted values are never expanded again. It returns the references
// that have no value, each once, and an error when a reference is
// malformed. Errors never contain a value.
func expand(s string, lk Lookup) (string, []unresolved, error) {
	if !strings.Contains(s, "${") {
		return s, nil, nil
	}
	var b strings.Builder
	var missing []unresolved
	rest := s
	for {
		start := strings.Index(rest, "${")
		if start < 0 {
			b.WriteString(rest)
			break
		}
		if start > 0 && rest[start-1] == '$' { // $${ is a literal ${
			b.WriteString(rest[:start-1])
			b.WriteString("${")
			rest = rest[start+2:]
			continue
		}
		b.WriteString(rest[:start])
		end := strings.IndexByte(rest[start:], '}')
		if end < 0 {
			return "", nil, fmt.Errorf("unterminated %q (want ${NAME}, ${NAME:-default} or ${keychain:NAME}; $${ writes a literal ${)", clip(rest[start:]))
		}
		ref := rest[start+2 : start+end]
		value, miss, err := resolveRef(ref, lk)
		if err != nil {
			return "", nil, err
		}
		if miss != nil && !slices.ContainsFunc(missing, func(m unresolved) bool { return m.name == miss.name && m.secret == miss.secret }) {
			missing = append(missing, *miss)
		}
		b.WriteString(value)
		rest = rest[start+end+1:]
	}
	return b.String(), missing, nil
}

// resolveRef resolves the inside of one ${...}; missing is set when the
// reference is well formed but has no value.
func resolveRef(ref string, lk Lookup) (value string, missing *unresolved, err error) {
	if name, ok := strings.CutPrefix(ref, keychainPrefix); ok {
		return resolveSecret(name, lk.Secrets)
	}
	name, def, hasDefault := strings.Cut(ref, ":-")
	if !isEnvName(name) {
		return "", nil, fmt.Errorf("%q is not a variable reference (want ${NAME}, ${NAME:-default} or ${keychain:NAME}; $${ writes a literal ${)", clip("${"+ref+"}"))
	}
	var v string
	ok := false
	if lk.Env != nil {
		v, ok = lk.Env(name)
	}
	switch {
	case ok && v != "":
		return v, nil, nil
	case hasDefault:
		return def, nil, nil
	case ok:
		return "", nil, nil
	}
	return "", &unresolved{name: name}, nil
}

// resolveSecret reads the secret of a ${keychain:NAME} reference.
func resolveSecret(name string, store Secrets) (string, *unresolved, error) {
	if !isSecretName(name) {
		return "", nil, fmt.Errorf("%q is not a secret reference (want ${keychain:NAME}, NAME of letters, digits and . _ - : @ / +, no default)", clip("${"+keychainPrefix+name+"}"))
	}
	if store == nil {
		return "", &unresolved{name: name, secret: true, err: errors.New("no secret store is open")}, nil
	}
	v, err := store.Get(name)
	if err != nil {
		return "", &unresolved{name: name, secret: true, err: err}, nil
	}
	return v, nil, nil
}

// isEnvName reports whether s is a portable environment variable name.
func isEnvName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// clip shortens text quoted in a message.
func clip(s string) string {
	const limit = 40
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "..."
}

// ServerNameProblem says why name cannot name a server, or returns "".
func ServerNameProblem(name string) string {
	return nameProblem(name)
}
