package mcpwire

import (
	"sync"
	"unicode/utf8"
)

// Tail is an io.Writer that keeps only the last size bytes written to
// it: the end of a child's stderr, for crash reports. It never blocks and
// never fails, so a chatty child cannot stall on its stderr pipe.
type Tail struct {
	mu   sync.Mutex
	size int
	buf  []byte
}

// NewTail returns a Tail that keeps the last size bytes.
func NewTail(size int) *Tail {
	return &Tail{size: size, buf: make([]byte, 0, size)}
}

// Write keeps the newest bytes of p and of what came before it.
func (t *Tail) Write(p []byte) (int, error) {
	n := len(p)
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(p) >= t.size {
		t.buf = append(t.buf[:0], p[len(p)-t.size:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.size; over > 0 {
		t.buf = t.buf[:copy(t.buf, t.buf[over:])]
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// String returns the kept bytes, starting at a whole UTF-8 character.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
		b = b[1:]
	}
	return string(b)
}
