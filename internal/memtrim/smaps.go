package memtrim

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

// mapping is one mapping of the process's address space as
// /proc/self/smaps describes it.
type mapping struct {
	start, end uint64
	perms      string // "r-xp"
	path       string // "" for anonymous memory
	rssKB      int64  // resident pages
	anonKB     int64  // pages the process has written (private copies)
}

// parseSmaps reads the mappings of an smaps file. A line it cannot read is
// skipped: the kernel adds fields over time, and a mapping whose header is
// unreadable is one this package leaves alone.
func parseSmaps(data []byte) []mapping {
	var out []mapping
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m, ok := parseHeader(line); ok {
			out = append(out, m)
			continue
		}
		if len(out) == 0 {
			continue
		}
		last := &out[len(out)-1]
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch key {
		case "Rss":
			last.rssKB = kilobytes(value)
		case "Anonymous":
			last.anonKB = kilobytes(value)
		}
	}
	return out
}

// parseHeader reads "start-end perms offset dev inode [path]".
func parseHeader(line string) (mapping, bool) {
	rest := line
	var fields [5]string
	for i := range fields {
		rest = strings.TrimLeft(rest, " ")
		f, tail, _ := strings.Cut(rest, " ")
		fields[i], rest = f, tail
	}
	lo, hi, ok := strings.Cut(fields[0], "-")
	if !ok || len(fields[1]) != 4 {
		return mapping{}, false
	}
	start, err1 := strconv.ParseUint(lo, 16, 64)
	end, err2 := strconv.ParseUint(hi, 16, 64)
	if err1 != nil || err2 != nil || end <= start {
		return mapping{}, false
	}
	return mapping{start: start, end: end, perms: fields[1], path: strings.TrimLeft(rest, " ")}, true
}

// kilobytes reads "   1556 kB"; anything else is 0.
func kilobytes(value string) int64 {
	n, unit, _ := strings.Cut(strings.TrimSpace(value), " ")
	if unit != "kB" {
		return 0
	}
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// releasable picks the mappings of the executable exe that can be dropped
// and fetched again from the file: resident, not writable, and holding no
// page the process wrote.
func releasable(ms []mapping, exe string) []mapping {
	var out []mapping
	for _, m := range ms {
		if m.path != exe || m.perms[0] != 'r' || m.perms[1] == 'w' || m.perms[3] != 'p' {
			continue
		}
		if m.rssKB == 0 || m.anonKB != 0 {
			continue
		}
		out = append(out, m)
	}
	return out
}
