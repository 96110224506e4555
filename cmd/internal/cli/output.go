package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeJSONList prints list as an indented JSON array, [] when it is
// empty.
func writeJSONList[T any](w io.Writer, list []T) error {
	if list == nil {
		list = []T{}
	}
	return writeJSON(w, list)
}

// table prints aligned columns.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer, header ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)}
	t.row(header...)
	return t
}

// row writes one row; a control character in a cell (a newline or tab in
// a file name) is written as its escape, so that it cannot break the table.
func (t *table) row(cols ...string) {
	cells := make([]string, len(cols))
	for i, c := range cols {
		cells[i] = cellText.Replace(c)
	}
	fmt.Fprintln(t.tw, strings.Join(cells, "\t"))
}

// cellText escapes the control characters a table cell must not hold.
var cellText = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`, "\v", `\v`, "\f", `\f`, "\x1b", `\x1b`)

func (t *table) flush() error { return t.tw.Flush() }

// oneLine shortens s to one line of at most n runes for a table cell.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// errorLine is an error's text on one line of at most n characters. An
// error's cause is at its end ("Post …: dial tcp …: connection refused"),
// so a long one keeps its start and its end and drops the middle.
func errorLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := n / 3
	tail := n - head - 1
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// humanDuration prints d compactly, or "-" when never measured.
func humanDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "-"
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	default:
		return d.Round(10 * time.Millisecond).String()
	}
}
