package config

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// topKeys are the keys toolhub's file may have at the top level. models,
// orchestrator, preferences and http are accepted and kept raw; python and
// webSearch are read by ReadBuiltinTools.
var topKeys = []string{"mcpServers", "documents", "models", "orchestrator", "preferences", "http", "python", "webSearch", "$schema"}

// Parse reads a toolhub configuration. filename is used in problems and as
// File.Path. Every problem found is returned in one *ProblemsError.
func Parse(filename string, data []byte) (*File, error) {
	return parse(filename, data, false)
}

// ParseServe is Parse for running the hub, where a bad entry must not take
// the rest down: a server entry with problems (an unknown type, no command
// or url, a bad URL) is kept aside with its problems instead of failing the
// file, and ServeSpecs lists it as invalid. A documents section with
// problems is left out whole (no folder is indexed by it; leaving out only
// its bad keys could index what its exclude patterns keep out), and so is
// an unknown top-level key (another program's, as a client's own config
// file has), with their problems in File.LeftOut. Other problems still
// fail, as in Parse.
func ParseServe(filename string, data []byte) (*File, error) {
	f, err := parse(filename, data, true)
	var pe *ProblemsError
	if err == nil || !errors.As(err, &pe) {
		return f, err
	}
	blanked, ok := blankSections(filename, data, "documents", pe.Problems)
	if !ok {
		return nil, err
	}
	f, again := parse(filename, blanked, true)
	if again != nil {
		return nil, err
	}
	f.LeftOut = append(f.LeftOut, pe.Problems...)
	sortProblems(f.LeftOut)
	return f, nil
}

func parse(filename string, data []byte, lenient bool) (*File, error) {
	l := &problemList{file: filename, src: data}
	root, ok := parseTree(l, data)
	if !ok {
		return nil, l.err()
	}
	f := &File{Path: filename, MCPServers: map[string]Server{}}
	if lenient {
		f.invalid = map[string]invalidServer{}
	}
	d := decoder{l}
	members, ok := d.object(&root, "")
	if ok {
		for _, m := range members {
			readTopMember(d, m, f)
		}
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	return f, nil
}

func readTopMember(d decoder, m member, f *File) {
	switch m.key {
	case "mcpServers":
		readServers(d, m.value, f.MCPServers, f.invalid)
	case "documents":
		f.Documents = readDocuments(d, m.value)
	case "models":
		f.Models = raw(m.value)
	case "orchestrator":
		f.Orchestrator = raw(m.value)
	case "preferences":
		f.Preferences = raw(m.value)
	case "python", "webSearch": // read by ReadBuiltinTools
	case "http":
		f.HTTP = raw(m.value)
	case "$schema":
		// editors use it for completion; toolhub has no use for it
	default:
		msg := fmt.Sprintf("unknown top-level key %q%s", m.key, didYouMean(m.key, topKeys))
		if f.invalid != nil { // ParseServe: another program's key is left out, not fatal
			p := d.pos(m.keyAt)
			f.LeftOut = append(f.LeftOut, Problem{File: d.file, Line: p.line, Col: p.col, Message: msg})
			return
		}
		d.at(m.keyAt, "%s", msg)
	}
}

// readServers decodes the "mcpServers" object into servers. With invalid
// set, an entry with problems goes there with its problems, which leave the
// file's list.
func readServers(d decoder, v *hujson.Value, servers map[string]Server, invalid map[string]invalidServer) {
	members, ok := d.members(v, "mcpServers")
	if !ok {
		return
	}
	noWarnings := func(string) {}
	firstAt := make(map[string]int, len(members))
	for _, m := range members {
		before := len(d.problems)
		if at, dup := firstAt[m.key]; dup {
			d.duplicate(m, at, "mcpServers")
			setAsideTwice(d, m.key, before, servers, invalid)
			continue
		}
		firstAt[m.key] = m.keyAt
		s, ok := readServer(d, m.key, m.keyAt, m.value, false, noWarnings)
		switch {
		case ok:
			servers[m.key] = s
		case invalid != nil:
			invalid[m.key] = invalidServer{server: s, problems: takeProblems(d, before)}
		}
	}
}

// setAsideTwice makes a server name given twice an invalid entry, when
// invalid entries are kept: which of the two was meant cannot be known, so
// neither runs. Otherwise the duplicate stays a problem of the file.
func setAsideTwice(d decoder, name string, before int, servers map[string]Server, invalid map[string]invalidServer) {
	if invalid == nil {
		return
	}
	entry := invalid[name]
	if s, ok := servers[name]; ok {
		entry.server = s
		delete(servers, name)
	}
	entry.problems = append(entry.problems, takeProblems(d, before)...)
	invalid[name] = entry
}

// takeProblems removes the problems recorded since the first before and
// returns them.
func takeProblems(d decoder, before int) []Problem {
	problems := slices.Clone(d.problems[before:])
	d.problems = d.problems[:before]
	return problems
}

// parseTree parses JSONC, turning a syntax error into a positioned problem.
func parseTree(l *problemList, data []byte) (hujson.Value, bool) {
	if len(bytes.TrimSpace(data)) == 0 {
		l.add(position{1, 1}, `the file is empty: want a JSON object such as {"mcpServers": {}}`)
		return hujson.Value{}, false
	}
	v, err := hujson.Parse(data)
	if err != nil {
		p, msg := syntaxPosition(err)
		l.add(p, "syntax error: %s", msg)
		return hujson.Value{}, false
	}
	return v, true
}

var hujsonErr = regexp.MustCompile(`(?s)^hujson: line (\d+), column (\d+): (.*)$`)

// syntaxPosition extracts the position hujson puts in its error text.
func syntaxPosition(err error) (position, string) {
	m := hujsonErr.FindStringSubmatch(err.Error())
	if m == nil {
		return position{}, err.Error()
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	msg := strings.ReplaceAll(m[3], "unexpected EOF", "unexpected end of file")
	return position{line: line, col: col}, msg
}
