package testenv

import (
	"bytes"
	"sync"
)

// Buffer is a bytes.Buffer safe for concurrent use, for a log a test
// reads while background goroutines (a downstream's transport logging as
// it shuts down) may still write to it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
