package config

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// clientReader collects the servers of one client file.
type clientReader struct {
	cf        *ClientFile
	src       []byte
	lineStart []int  // shared by every problem list of the file
	server    string // the server being read, which warnings are about
}

// problems returns an empty problem list for the file.
func (r *clientReader) problems() *problemList {
	l := &problemList{file: r.cf.Path, src: r.src, lineStart: r.lineStart}
	l.pos(0)
	r.lineStart = l.lineStart
	return l
}

func (r *clientReader) warn(msg string) {
	r.cf.Warnings = append(r.cf.Warnings, msg)
	r.cf.warnedAbout = append(r.cf.warnedAbout, r.server)
}

// readList reads one server list; project is the Claude Code project that
// owns it, or "".
func (r *clientReader) readList(v *hujson.Value, project string) {
	l := r.problems()
	members, _ := decoder{l}.object(v, "server list")
	r.warnProblems("", l)
	for _, m := range members {
		r.readOne(m, project)
	}
}

// readOne reads one server, renaming it if its name is not usable.
func (r *clientReader) readOne(m member, project string) {
	name := sanitizeName(m.key)
	r.server = name
	defer func() { r.server = "" }()
	if name != m.key {
		r.warn(fmt.Sprintf(`server %q renamed %q: toolhub server names use only letters, digits, "-" and "_", without "__"`, m.key, name))
		if r.cf.Renamed == nil {
			r.cf.Renamed = map[string]string{}
		}
		r.cf.Renamed[m.key] = name
	}
	l := r.problems()
	s, ok := readServer(decoder{l}, name, m.keyAt, m.value, true, r.warn)
	if !ok {
		r.warnProblems("skipped: ", l)
		return
	}
	r.checkRefs(name, &s)
	if prev, dup := r.cf.Servers[name]; dup {
		if !sameServer(prev, s) {
			r.warn(fmt.Sprintf("server %q%s skipped: a different server of that name is listed earlier", name, inProject(project)))
		}
		return
	}
	r.cf.Servers[name] = s
}

func inProject(project string) string {
	if project == "" {
		return ""
	}
	return " of project " + project
}

func (r *clientReader) warnProblems(lead string, l *problemList) {
	sortProblems(l.problems)
	for _, p := range l.problems {
		r.warn(lead + p.String())
	}
}

// vscodeEnvRef is VS Code's spelling of an environment reference, and
// vscodeInputRef its prompt for a value ("inputs").
var (
	vscodeEnvRef   = regexp.MustCompile(`\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}`)
	vscodeInputRef = regexp.MustCompile(`\$\{input:([^${}]+)\}`)
	// vscodeOwnRef is one of VS Code's predefined variables, which name
	// its window's folder and files.
	vscodeOwnRef = regexp.MustCompile(`\$\{(workspaceFolder(Basename)?(:[^}]*)?|userHome|cwd|file[A-Za-z]*|relativeFile[A-Za-z]*|lineNumber|selectedText|execPath|pathSeparator|/)\}`)
)

// checkRefs rewrites VS Code's ${env:NAME} to ${NAME} and ${input:ID} to
// ${keychain:SERVER.ID} in env and headers, and warns about references
// toolhub will not expand.
func (r *clientReader) checkRefs(name string, s *Server) {
	for _, key := range []string{"env", "headers"} {
		values := s.Env
		if key == "headers" {
			values = s.Headers
		}
		for _, k := range slices.Sorted(maps.Keys(values)) {
			v := vscodeEnvRef.ReplaceAllString(values[k], "$${$1}")
			v = r.inputsToSecrets(name, key+"."+k, v)
			values[k] = v
			if m := vscodeOwnRef.FindString(v); m != "" {
				r.warn(fmt.Sprintf("server %q: %s.%s: VS Code's %s has no value outside a VS Code window; it was copied as written: replace it with the path it stands for", name, key, k, m))
				continue
			}
			if _, _, err := expand(v, Lookup{Env: func(string) (string, bool) { return "", true }}); err != nil {
				r.warn(fmt.Sprintf("server %q: %s.%s: %v; it was copied as written and must be replaced before the server can start", name, key, k, err))
			}
		}
	}
	literal := append([]string{s.Command, s.URL, s.Cwd}, s.Args...)
	if slices.ContainsFunc(literal, func(v string) bool { return strings.Contains(v, "${") }) {
		r.warn(fmt.Sprintf("server %q: ${...} in command, args, cwd or url is passed as written: toolhub expands ${NAME} only in env and headers", name))
	}
	if slices.ContainsFunc(s.Args, looksLikeToken) {
		r.warn(fmt.Sprintf("server %q: an argument looks like an access token and is copied as written: pass it in env instead, as ${keychain:NAME}", name))
	}
}

// looksLikeToken reports whether an argument, or the value of a
// --flag=value argument, starts like an issued token.
func looksLikeToken(arg string) bool {
	if _, v, ok := strings.Cut(arg, "="); ok && hasTokenPrefix(v) {
		return true
	}
	return hasTokenPrefix(arg)
}

// inputsToSecrets turns each ${input:ID} of v into a reference to the
// secret SERVER.ID, which the user sets once with toolhub config set-secret.
func (r *clientReader) inputsToSecrets(server, where, v string) string {
	return vscodeInputRef.ReplaceAllStringFunc(v, func(ref string) string {
		id := vscodeInputRef.FindStringSubmatch(ref)[1]
		secret := SecretName(server, id)
		r.warn(fmt.Sprintf("server %q: %s: VS Code's input %q now reads ${keychain:%s}; unless that secret is set already, set it with `%s`", server, where, id, secret, SetSecretCommand(secret)))
		return "${" + keychainPrefix + secret + "}"
	})
}

// sanitizeName turns a client's server name into a valid toolhub name.
func sanitizeName(name string) string {
	if nameProblem(name) == "" {
		return name
	}
	b := []byte(name)
	for i, c := range b {
		if !strings.ContainsRune(nameChars, rune(c)) {
			b[i] = '-'
		}
	}
	out := string(b)
	for strings.Contains(out, "__") {
		out = strings.ReplaceAll(out, "__", "_")
	}
	if out == "" {
		return "server"
	}
	return out
}
