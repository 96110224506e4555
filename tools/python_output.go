package tools

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// cappedBuffer keeps the first limit bytes written to it and counts the
// rest, so a program printing gigabytes costs the hub at most limit bytes.
type cappedBuffer struct {
	mu      sync.Mutex
	limit   int
	buf     []byte
	dropped int64
}

func newCappedBuffer(limit int) *cappedBuffer { return &cappedBuffer{limit: limit} }

// Write never fails, so the writer is never blocked by a full buffer.
func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.limit - len(c.buf)
	if room > len(p) {
		room = len(p)
	}
	if room > 0 {
		c.buf = append(c.buf, p[:room]...)
	}
	c.dropped += int64(len(p) - max(room, 0))
	return len(p), nil
}

// text returns the kept bytes, cut at a whole UTF-8 character, with a
// marker saying how much was dropped; truncated reports whether any was.
func (c *cappedBuffer) text() (s string, truncated bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.buf
	if c.dropped == 0 {
		return strings.ToValidUTF8(string(b), "\uFFFD"), false
	}
	cut := len(b)
	for i := 0; i < utf8.UTFMax && cut > 0 && !utf8.RuneStart(b[cut-1]); i++ {
		cut--
	}
	if cut > 0 && !utf8.FullRune(b[cut-1:]) {
		cut--
	}
	kept := strings.ToValidUTF8(string(b[:cut]), "\uFFFD")
	return kept + fmt.Sprintf("\n[output truncated: %d more bytes not shown]", c.dropped+int64(len(b)-cut)), true
}
