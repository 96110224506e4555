package service

import (
	"io"
	"os/exec"
	"sync"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
)

// ProcessStarter is Keep's start for a real program: exe with args as a
// process tree of its own (a process group, or a job object on Windows,
// so nothing outlives this process), with this process's whole environment
// (the config may name any variable), no stdin, and stdout and stderr
// written to out. Stopping it interrupts the tree and kills it after
// grace.
func ProcessStarter(exe string, args []string, out io.Writer, grace time.Duration) func() (Run, error) {
	return func() (Run, error) {
		cmd := exec.Command(exe, args...)
		cmd.Stdout, cmd.Stderr = out, out
		group, err := proc.Start(cmd)
		if err != nil {
			return nil, err
		}
		p := &process{cmd: cmd, group: group, grace: grace, done: make(chan struct{})}
		go p.reap()
		return p, nil
	}
}

// process is one started program.
type process struct {
	cmd   *exec.Cmd
	group *proc.Group
	grace time.Duration

	done chan struct{} // closed once cmd is reaped
	err  error         // set before done is closed
	once sync.Once
}

func (p *process) reap() {
	p.err = p.cmd.Wait()
	close(p.done)
}

func (p *process) Done() <-chan struct{} { return p.done }

func (p *process) Err() error { return p.err }

func (p *process) Stop() {
	p.once.Do(func() {
		proc.Stop(p.group, p.done, proc.StopOptions{Grace: p.grace})
		_ = p.group.Release()
	})
}
