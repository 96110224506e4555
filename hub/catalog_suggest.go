package hub

import (
	"cmp"
	"slices"
	"strings"
)

// Scores for matches that are not about typos; edit distances count 1 per
// edit, so a prefix match ranks before a one-letter typo.
const (
	prefixScore    = 0.5
	substringScore = 0.75
	minSubstring   = 3 // shorter queries are not matched as substrings
)

// suggestEntry is one tool's name prepared for comparison.
type suggestEntry struct {
	name   string // exposed
	full   string // exposed, lower-case
	server string // sanitised server name, lower-case
	tail   string // sanitised original tool name, lower-case
}

func (s *Snapshot) suggestEntries() []suggestEntry {
	s.suggestOnce.Do(func() {
		s.suggestIndex = make([]suggestEntry, len(s.tools))
		for i, t := range s.tools {
			s.suggestIndex[i] = suggestEntry{
				name:   t.Name,
				full:   strings.ToLower(t.Name),
				server: strings.ToLower(sanitizeName(t.Server)),
				tail:   strings.ToLower(sanitizeName(t.RawTool.Name)),
			}
		}
	})
	return s.suggestIndex
}

// suggestQuery is a looked-up name split like an exposed one.
type suggestQuery struct {
	full, server, tail string
	maxDist            int
}

func newSuggestQuery(name string) suggestQuery {
	q := suggestQuery{full: strings.ToLower(name)}
	q.tail = q.full
	if server, tail, ok := strings.Cut(q.full, nameSeparator); ok {
		q.server, q.tail = server, tail
	}
	q.maxDist = max(2, len(q.tail)/3)
	return q
}

type suggestion struct {
	name     string
	score    float64
	fullDist int
}

// Suggest returns up to n exposed names closest to name, best first, for
// "unknown tool, did you mean" answers. A candidate qualifies by edit
// distance (transpositions count once) to the whole name or to the part
// after "__" (so "get-sum" finds "everything__get-sum"), or when the query
// is a prefix or substring of it. Names further than about a third of the
// query's length are left out.
func (s *Snapshot) Suggest(name string, n int) []string {
	if n <= 0 || len(s.tools) == 0 {
		return nil
	}
	q := newSuggestQuery(name)
	var d editDistance
	var found []suggestion
	for _, e := range s.suggestEntries() {
		if sug, ok := q.score(e, &d); ok {
			found = append(found, sug)
		}
	}
	slices.SortFunc(found, func(a, b suggestion) int {
		return cmp.Or(cmp.Compare(a.score, b.score), cmp.Compare(a.fullDist, b.fullDist),
			strings.Compare(a.name, b.name))
	})
	names := make([]string, 0, min(n, len(found)))
	for _, sug := range found[:min(n, len(found))] {
		names = append(names, sug.name)
	}
	return names
}

// score rates candidate e; ok is false when it is too far off.
func (q suggestQuery) score(e suggestEntry, d *editDistance) (suggestion, bool) {
	fullDist := d.bounded(q.full, e.full, q.maxDist)
	tailDist := d.bounded(q.tail, e.tail, q.maxDist)
	if q.server != "" && q.server != e.server {
		tailDist++ // right tool, wrong or misspelt server
	}
	best := float64(min(fullDist, tailDist))
	if len(q.tail) >= minSubstring {
		switch {
		case strings.HasPrefix(e.tail, q.tail) || strings.HasPrefix(e.full, q.full):
			best = min(best, prefixScore)
		case strings.Contains(e.full, q.tail):
			best = min(best, substringScore)
		}
	}
	if best > float64(q.maxDist) {
		return suggestion{}, false
	}
	return suggestion{name: e.name, score: best, fullDist: fullDist}, true
}

// editDistance computes optimal-string-alignment distances (Levenshtein
// plus adjacent transpositions), reusing its rows between calls.
type editDistance struct {
	prev2, prev, cur []int
}

// bounded returns the distance between a and b, or bound+1 once it is
// certain to exceed bound. Only the diagonal band |i-j| <= bound is
// computed; cells outside it hold bound+1.
func (d *editDistance) bounded(a, b string, bound int) int {
	if max(len(a)-len(b), len(b)-len(a)) > bound {
		return bound + 1
	}
	a, b = trimCommon(a, b)
	far := bound + 1
	d.prev2 = resetRow(d.prev2, len(b)+2)
	d.prev = resetRow(d.prev, len(b)+2)
	d.cur = resetRow(d.cur, len(b)+2)
	for j := 0; j <= min(len(b), bound); j++ {
		d.prev[j] = j
	}
	d.prev[min(len(b), bound)+1] = far
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-bound), min(len(b), i+bound)
		d.cur[lo-1] = far
		if lo == 1 {
			d.cur[0] = i
		}
		rowMin := d.cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(d.prev[j]+1, d.cur[j-1]+1, d.prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, d.prev2[j-2]+1)
			}
			d.cur[j] = v
			rowMin = min(rowMin, v)
		}
		d.cur[hi+1] = far
		if rowMin > bound {
			return far
		}
		d.prev2, d.prev, d.cur = d.prev, d.cur, d.prev2
	}
	return min(d.prev[len(b)], far)
}

// trimCommon drops the prefix and suffix a and b share; no optimal
// alignment needs to edit them.
func trimCommon(a, b string) (string, string) {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	a, b = a[n:], b[n:]
	n = 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return a[:len(a)-n], b[:len(b)-n]
}

func resetRow(row []int, n int) []int {
	if cap(row) < n {
		return make([]int, n)
	}
	return row[:n]
}
