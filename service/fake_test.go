package service

import (
	"context"
	"errors"
	"strings"
	"sync"
)

// fakeRunner records every command and answers from a table keyed by the
// joined command line; commands not in it succeed with no output.
type fakeRunner struct {
	mu      sync.Mutex
	calls   []string
	answers map[string]fakeAnswer
}

type fakeAnswer struct {
	out string
	err error
}

var errExit = errors.New("exit status 1")

func (f *fakeRunner) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	line := strings.Join(append([]string{name}, args...), " ")
	f.calls = append(f.calls, line)
	a := f.answers[line]
	return []byte(a.out), a.err
}
