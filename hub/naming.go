// Tool naming.
//
// Every tool in the catalog is exposed under one name that MCP clients accept:
//
//   - The plain name is server + "__" + tool, or just the tool's own name for
//     a server marked Unprefixed.
//   - Characters outside [A-Za-z0-9_.-] are replaced by "_", one "_" per
//     character (so "é" becomes "_", not "__").
//   - Names are at most MaxToolNameLen (60) characters: Cursor rejects longer
//     ones, Claude anything past 64. A longer plain name keeps its first 53
//     characters and gets "_" plus the first 6 hex digits of the SHA-256 of
//     the full original "server__tool" (unsanitised), 60 characters in all.
//   - Two different (server, tool) pairs may still map to the same plain name,
//     after sanitising ("my server" and "my_server") or when an Unprefixed
//     server's tool meets another's. All pairs sharing a plain name are sorted
//     by (server, tool); the first keeps the plain name and each later one
//     gets the hash suffix of its own full original. Should that name be
//     taken as well the hash is extended two digits at a time.
//
// The outcome depends only on the set of tools, never on the order servers
// were added in. A tool keeps its name across rebuilds while unrelated
// servers come and go; it changes only when a new collision on its plain name
// arises and the newcomer sorts first (the tool then moves to its hashed
// name), or when that collision goes away again (it gets its plain name back).

package hub

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// MaxToolNameLen is the longest exposed tool name the catalog produces.
const MaxToolNameLen = 60

// nameSeparator joins a server's name and a tool's name.
const nameSeparator = "__"

// minHashLen is how many hex digits of SHA-256 a shortened or
// disambiguated name carries.
const minHashLen = 6

// toolKey identifies a tool independently of its exposed name.
type toolKey struct {
	server string
	tool   string
}

// original is the full, unsanitised "server__tool" whose hash disambiguates.
func (k toolKey) original() string {
	return k.server + nameSeparator + k.tool
}

func compareToolKeys(a, b toolKey) int {
	if c := strings.Compare(a.server, b.server); c != 0 {
		return c
	}
	return strings.Compare(a.tool, b.tool)
}

// isNameChar reports whether r may appear in an exposed tool name.
func isNameChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
		r == '_' || r == '.' || r == '-'
}

// sanitizeName replaces every character outside [A-Za-z0-9_.-] by "_". The
// result is ASCII, so it may be cut at any byte.
func sanitizeName(s string) string {
	clean := true
	for _, r := range s {
		if !isNameChar(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if isNameChar(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// fullName is the sanitised name before any length limit is applied.
func fullName(k toolKey, unprefixed bool) string {
	if unprefixed {
		return sanitizeName(k.tool)
	}
	return sanitizeName(k.server) + nameSeparator + sanitizeName(k.tool)
}

// plainName is the name a tool gets when nothing collides with it.
func plainName(k toolKey, unprefixed bool) string {
	full := fullName(k, unprefixed)
	if full == "" {
		full = "_"
	}
	if len(full) <= MaxToolNameLen {
		return full
	}
	return withHash(full, hashHex(k.original()), minHashLen)
}

// withHash cuts name so that name + "_" + the first hexLen digits of hash fit
// in MaxToolNameLen, and appends them.
func withHash(name, hash string, hexLen int) string {
	keep := MaxToolNameLen - 1 - hexLen
	if len(name) > keep {
		name = name[:keep]
	}
	return name + "_" + hash[:hexLen]
}

func hashHex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// namedTool is one tool awaiting its exposed name.
type namedTool struct {
	key   toolKey
	full  string // sanitised, unshortened
	plain string
}

// plainNameCounts counts how many tools of the catalog have each plain name.
// The catalog keeps it up to date as servers come and go, so that a rebuild
// need not recount.
type plainNameCounts map[string]int

func (c plainNameCounts) add(t namedTool) {
	c[t.plain]++
}

func (c plainNameCounts) remove(t namedTool) {
	c[t.plain]--
	if c[t.plain] <= 0 {
		delete(c, t.plain)
	}
}

// namer hands out exposed names during one rebuild. Tools must be named in
// key order, each key once.
type namer struct {
	plains plainNameCounts
	given  map[string]bool // contested plain names and hashed names handed out so far
}

func newNamer(plains plainNameCounts) *namer {
	return &namer{plains: plains, given: make(map[string]bool)}
}

// name returns t's exposed name: its plain name unless an earlier tool
// (in key order) already holds it.
func (n *namer) name(t namedTool) string {
	if n.plains[t.plain] <= 1 {
		return t.plain
	}
	if !n.given[t.plain] {
		n.given[t.plain] = true
		return t.plain
	}
	name := n.disambiguate(t)
	n.given[name] = true
	return name
}

// taken reports whether name is some tool's plain name or already given.
func (n *namer) taken(name string) bool {
	return n.plains[name] > 0 || n.given[name]
}

// disambiguate finds the first hashed name for t that is not taken.
// Extending the hash cannot help when two keys share their original string
// ("a_" + "__" + "_b" and "a" + "__" + "__b") and all lengths are used up,
// so after the whole digest a counter is mixed in.
func (n *namer) disambiguate(t namedTool) string {
	for round := 0; ; round++ {
		source := t.key.original()
		if round > 0 {
			source += "#" + strconv.Itoa(round)
		}
		hash := hashHex(source)
		for hexLen := minHashLen; hexLen <= len(hash) && hexLen < MaxToolNameLen; hexLen += 2 {
			if name := withHash(t.full, hash, hexLen); !n.taken(name) {
				return name
			}
		}
	}
}
