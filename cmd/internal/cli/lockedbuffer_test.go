package cli

import (
	"bytes"
	"sync"
)

// lockedBuffer is a bytes.Buffer safe for concurrent use: background
// goroutines (a downstream's transport logging while it shuts down) may
// still write a log line after a command returned.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
