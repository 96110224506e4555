//go:build unix

package proc

import (
	"fmt"
	"io"
	"os"
	"syscall"
	"testing"
)

func TestBrokenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.Close()
	_, writeErr := w.Write([]byte("x")) // Go ignores SIGPIPE on pipes other than stdout
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"a write with no reader", writeErr, true},
		{"wrapped", fmt.Errorf("transport error: %w", writeErr), true},
		{"bare EPIPE", syscall.EPIPE, true},
		{"end of file", io.EOF, false},
		{"nil", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := BrokenPipe(tc.err); got != tc.want {
				t.Errorf("BrokenPipe(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
