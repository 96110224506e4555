package proc

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// ChildSpec is the program a Child runs.
type ChildSpec struct {
	Command string
	Args    []string
	// Env is added to the allow-listed part of toolhub's environment
	// (ChildEnv) and wins over it.
	Env map[string]string
	// Dir is the working directory; "" means toolhub's.
	Dir string
}

// Child is a program toolhub spawned: its own process tree (a process
// group, or a job object on Windows), a minimal environment, pipes toolhub
// owns, and a goroutine that reaps it the moment it exits (mcp-go only
// waits for its children in Close).
type Child struct {
	cmd    *exec.Cmd
	group  *Group
	Stdin  *os.File // toolhub's write end
	Stdout *os.File // toolhub's read end

	exited  chan struct{} // closed once the child is reaped
	waitErr error         // set before exited is closed
	drained chan struct{} // closed once its stderr pipe is read to the end
	settle  time.Duration // stderrSettle when the child started

	closeOnce sync.Once
}

// StartChild spawns spec's command. Its stderr is copied into stderr; stdin
// and stdout are left to the caller (an MCP transport, or a drain).
func StartChild(spec ChildSpec, stderr io.Writer) (*Child, error) {
	env := ChildEnv(os.Environ(), spec.Env)
	path, err := LookPath(spec.Command, env)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.Command, err)
	}
	cmd := exec.Command(path, spec.Args...)
	cmd.Env = env
	cmd.Dir = spec.Dir

	pipes, err := newChildPipes()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.Command, err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes.childStdin, pipes.childStdout, pipes.childStderr
	group, err := Start(cmd)
	if err != nil {
		pipes.closeAll()
		return nil, fmt.Errorf("start %s: %w", spec.Command, err)
	}
	pipes.closeChildEnds()

	p := &Child{
		cmd:     cmd,
		group:   group,
		Stdin:   pipes.stdin,
		Stdout:  pipes.stdout,
		exited:  make(chan struct{}),
		drained: make(chan struct{}),
		settle:  stderrSettle,
	}
	go func() {
		defer close(p.drained)
		Drain(stderr, pipes.stderr)
	}()
	go p.reap()
	return p, nil
}

// Drain copies one of a child's outputs into dst until every holder of the
// pipe (the child and any grandchild) has closed it.
func Drain(dst io.Writer, src *os.File) {
	_, _ = io.Copy(dst, src)
	_ = src.Close()
}

// stderrSettle bounds how long a reaped child's last output may take to
// reach the stderr writer; a grandchild that keeps the pipe open must not
// hold back the exit. A variable so that tests can lengthen it.
var stderrSettle = 250 * time.Millisecond

// reap waits for the child, then for the rest of its stderr, so that
// whoever sees Exited also sees the child's last words (why it crashed).
func (p *Child) reap() {
	p.waitErr = p.cmd.Wait()
	settle := time.NewTimer(p.settle)
	select {
	case <-p.drained:
	case <-settle.C:
	}
	settle.Stop()
	close(p.exited)
}

// Pid is the child's process id (on Unix also its process group id).
func (p *Child) Pid() int { return p.group.Pid() }

// Exited is closed once the child has exited and been reaped, and its
// stderr has been copied to the end (or a grandchild still holds it).
func (p *Child) Exited() <-chan struct{} { return p.exited }

// ExitReason describes how the child ended; call it after Exited is closed.
func (p *Child) ExitReason() string {
	if p.waitErr == nil {
		return "exit status 0"
	}
	return p.waitErr.Error()
}

// Stop ends the child and everything it started: stdin is closed so a
// well-behaved server exits by itself, then the whole tree gets the
// graceful stop (SIGTERM, CTRL_BREAK on Windows), and is killed once grace
// has passed. It returns after the child is reaped; calling it again (or
// Terminate) does nothing more.
func (p *Child) Stop(grace time.Duration) {
	p.closeOnce.Do(func() {
		_ = p.Stdin.Close()
		Stop(p.group, p.exited, StopOptions{ExitWait: grace, Grace: grace})
		_ = p.group.Release()
		_ = p.Stdout.Close()
	})
}

// Terminate is Stop for a child that does not exit when its stdin closes
// (a model server): the graceful stop is sent at once, the kill once grace
// has passed.
func (p *Child) Terminate(grace time.Duration) {
	p.closeOnce.Do(func() {
		Stop(p.group, p.exited, StopOptions{Grace: grace})
		_ = p.group.Release()
		_ = p.Stdin.Close()
		_ = p.Stdout.Close()
	})
}

// childPipes are the three stdio pipes of a child: the hub's ends and the
// child's ends, which the hub closes once the child has them.
type childPipes struct {
	stdin, stdout, stderr                *os.File
	childStdin, childStdout, childStderr *os.File
}

func newChildPipes() (*childPipes, error) {
	p := &childPipes{}
	var err error
	if p.childStdin, p.stdin, err = os.Pipe(); err != nil {
		return nil, err
	}
	if p.stdout, p.childStdout, err = os.Pipe(); err != nil {
		p.closeAll()
		return nil, err
	}
	if p.stderr, p.childStderr, err = os.Pipe(); err != nil {
		p.closeAll()
		return nil, err
	}
	return p, nil
}

func (p *childPipes) closeChildEnds() {
	for _, f := range []*os.File{p.childStdin, p.childStdout, p.childStderr} {
		if f != nil {
			_ = f.Close()
		}
	}
}

func (p *childPipes) closeAll() {
	p.closeChildEnds()
	for _, f := range []*os.File{p.stdin, p.stdout, p.stderr} {
		if f != nil {
			_ = f.Close()
		}
	}
}
