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
	// onRun, when set, sees each command as it runs (to read a file it
	// names before the caller removes it).
	onRun func(name string, args []string)
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
	if f.onRun != nil {
		f.onRun(name, args)
	}
	a := f.answers[line]
	return []byte(a.out), a.err
}
