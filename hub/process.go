package hub

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
)

// childProcess is a stdio server the hub spawned: its own process tree (a
// process group, or a job object on Windows), a minimal environment, pipes the hub owns, and a goroutine that reaps it the
// moment it exits (mcp-go only waits for its children in Close).
type childProcess struct {
	cmd    *exec.Cmd
	group  *proc.Group
	stdin  *os.File // the hub's write end
	stdout *os.File // the hub's read end

	exited  chan struct{} // closed once the child is reaped
	waitErr error         // set before exited is closed

	closeOnce sync.Once
}

// startChild spawns spec's command. Its stderr is copied into stderr; stdin
// and stdout are left for the MCP transport.
func startChild(spec ServerSpec, stderr io.Writer) (*childProcess, error) {
	env := childEnv(os.Environ(), spec.Env)
	path, err := lookPath(spec.Command, envValue(env, "PATH"))
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.Command, err)
	}
	cmd := exec.Command(path, spec.Args...)
	cmd.Env = env
	cmd.Dir = spec.Cwd

	pipes, err := newChildPipes()
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.Command, err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes.childStdin, pipes.childStdout, pipes.childStderr
	group, err := proc.Start(cmd)
	if err != nil {
		pipes.closeAll()
		return nil, fmt.Errorf("start %s: %w", spec.Command, err)
	}
	pipes.closeChildEnds()

	p := &childProcess{
		cmd:    cmd,
		group:  group,
		stdin:  pipes.stdin,
		stdout: pipes.stdout,
		exited: make(chan struct{}),
	}
	go copyStderr(stderr, pipes.stderr)
	go p.reap()
	return p, nil
}

// copyStderr drains the child's stderr until every holder of the pipe (the
// child and any grandchild) has closed it.
func copyStderr(dst io.Writer, src *os.File) {
	_, _ = io.Copy(dst, src)
	_ = src.Close()
}

func (p *childProcess) reap() {
	p.waitErr = p.cmd.Wait()
	close(p.exited)
}

// pid is the child's process id (on Unix also its process group id).
func (p *childProcess) pid() int { return p.group.Pid() }

// exitReason describes how the child ended; call it after exited is closed.
func (p *childProcess) exitReason() string {
	if p.waitErr == nil {
		return "exit status 0"
	}
	return p.waitErr.Error()
}

// stop ends the child and everything it started: stdin is closed so a
// well-behaved server exits by itself, then the whole tree gets the
// graceful stop (SIGTERM, CTRL_BREAK on Windows), and is killed once grace
// has passed. It returns after the child is reaped; calling it again does
// nothing more.
func (p *childProcess) stop(grace time.Duration) {
	p.closeOnce.Do(func() {
		_ = p.stdin.Close()
		proc.Stop(p.group, p.exited, proc.StopOptions{ExitWait: grace, Grace: grace})
		_ = p.group.Release()
		_ = p.stdout.Close()
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
