package cli

import (
	"fmt"
	"io"
	"time"
)

// progressLinesEvery is how often at most a stage's progress is written
// between its first line and its last.
const progressLinesEvery = 5 * time.Second

// progressLines is progress for a log or a pipe, where a bar cannot be
// drawn: a line when a stage starts, one when it ends, and between them a
// line each time another tenth of it is done, at most every
// progressLinesEvery. A long command (a replay of a large pool, an eval,
// embedding a folder) so says where it is, and a quick one writes two
// lines a stage.
type progressLines struct {
	w   io.Writer
	now func() time.Time // time.Now when nil

	stage string    // "" before the first line
	tenth int       // the last tenth of stage written
	last  time.Time // when the last line was written
}

// report writes the line for done of total in stage, when one is due;
// detail (may be empty) follows the count.
func (p *progressLines) report(stage string, done, total int, detail string) {
	if p == nil || p.w == nil {
		return
	}
	now := time.Now
	if p.now != nil {
		now = p.now
	}
	tenth := 0
	if total > 0 {
		tenth = min(done, total) * 10 / total
	}
	t := now()
	switch {
	case stage != p.stage, tenth == 10 && p.tenth != 10:
		// a stage's first line and its last are always written
	case tenth == p.tenth || t.Sub(p.last) < progressLinesEvery:
		return
	}
	p.stage, p.tenth, p.last = stage, tenth, t
	line := fmt.Sprintf("%s: %d/%d", stage, done, total)
	if detail != "" {
		line += "  " + detail
	}
	fmt.Fprintln(p.w, line)
}
