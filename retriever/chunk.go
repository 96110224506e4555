package retriever

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const minChunkBytes = 64

// block is a run of text the chunker keeps together when it can: a
// paragraph, a fenced code block, or one Markdown heading line.
type block struct {
	start, end int
	level      int // Markdown heading level, 0 for other blocks
	heading    string
}

// chunkText cuts text into chunks of at most maxBytes bytes along
// paragraph boundaries (blank lines); in Markdown every ATX heading starts a
// new chunk and chunks carry the heading path in effect at their start.
// Offsets are byte offsets into text; chunk texts are text[Start:End] with
// surrounding whitespace left out.
func chunkText(text string, markdown bool, maxBytes int) []chunkRecord {
	maxBytes = max(maxBytes, minChunkBytes)
	c := chunker{text: text, max: maxBytes}
	for _, b := range splitBlocks(text, markdown) {
		c.add(b)
	}
	c.flush()
	return c.out
}

// chunker accumulates blocks into chunks.
type chunker struct {
	text     string
	max      int
	headings []string // heading path; index = level-1
	cur      *block
	curHead  string
	out      []chunkRecord
}

func (c *chunker) add(b block) {
	switch {
	case b.level > 0 && c.cur != nil && c.cur.level > 0 && b.end-c.cur.start <= c.max:
		// A heading right under another: one chunk, under the deeper path.
		c.setHeading(b.level, b.heading)
		c.cur.end, c.cur.level, c.curHead = b.end, b.level, c.headingPath()
		return
	case b.level > 0:
		c.flush()
		c.setHeading(b.level, b.heading)
	case c.cur != nil && b.end-c.cur.start <= c.max:
		c.cur.end, c.cur.level = b.end, 0
		return
	case c.cur != nil && c.cur.level > 0 && c.cur.start+c.max-b.start >= minChunkBytes:
		// A heading alone would make a chunk without content: fill it
		// with the start of the block.
		cut := cutPoint(c.text, b.start, c.cur.start+c.max)
		c.cur.end = cut
		c.flush()
		b.start = cut
	default:
		c.flush()
	}
	for b.end-b.start > c.max {
		cut := cutPoint(c.text, b.start, b.start+c.max)
		c.emit(b.start, cut, c.headingPath())
		b.start = cut
	}
	c.cur, c.curHead = &block{start: b.start, end: b.end, level: b.level}, c.headingPath()
}

func (c *chunker) flush() {
	if c.cur != nil {
		c.emit(c.cur.start, c.cur.end, c.curHead)
		c.cur = nil
	}
}

// emit appends text[start:end] minus surrounding whitespace, if anything
// is left.
func (c *chunker) emit(start, end int, heading string) {
	s := c.text[start:end]
	trimmedLeft := strings.TrimLeftFunc(s, unicode.IsSpace)
	start += len(s) - len(trimmedLeft)
	end = start + len(strings.TrimRightFunc(trimmedLeft, unicode.IsSpace))
	if start >= end {
		return
	}
	c.out = append(c.out, chunkRecord{Start: start, End: end, Heading: heading, Text: c.text[start:end]})
}

func (c *chunker) setHeading(level int, text string) {
	for len(c.headings) < level-1 {
		c.headings = append(c.headings, "")
	}
	c.headings = append(c.headings[:level-1], text)
}

// headingPath joins the headings in effect, e.g. "Guide > Install".
func (c *chunker) headingPath() string {
	parts := make([]string, 0, len(c.headings))
	for _, h := range c.headings {
		if h != "" {
			parts = append(parts, h)
		}
	}
	return strings.Join(parts, " > ")
}

// cutPoint picks where to end a piece of text[start:limit]: after the last
// newline in its second half, else after the last space there, else at
// the last rune boundary.
func cutPoint(text string, start, limit int) int {
	half := start + (limit-start)/2
	if i := strings.LastIndexByte(text[half:limit], '\n'); i >= 0 {
		return half + i + 1
	}
	if i := strings.LastIndexAny(text[half:limit], " \t"); i >= 0 {
		return half + i + 1
	}
	cut := limit
	for cut > start+1 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return cut
}
