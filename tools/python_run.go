package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
)

// Run runs code with the given wall-clock timeout (0 means the default; it
// is capped at the maximum). An error means the code could not be run at
// all; how the code itself ended is in the result.
func (p *Python) Run(ctx context.Context, code string, timeout time.Duration) (*PythonResult, error) {
	if timeout <= 0 {
		timeout = p.opts.DefaultTimeout
	}
	timeout = min(timeout, p.opts.MaxTimeout)
	sandbox, err := p.Sandbox(ctx)
	if err != nil {
		return nil, err
	}
	return p.run(ctx, code, timeout, sandbox == SandboxBubblewrap)
}

// run makes the temp dir, runs the interpreter in it and removes it.
func (p *Python) run(ctx context.Context, code string, timeout time.Duration, sandboxed bool) (*PythonResult, error) {
	dir, err := os.MkdirTemp(p.opts.TempRoot, "toolhub-python-")
	if err != nil {
		return nil, fmt.Errorf("make the working directory: %w", err)
	}
	defer removeAll(dir, p)
	home := dir
	argv := p.limitArgs(int(math.Ceil(timeout.Seconds())) + 1)
	if sandboxed {
		home = sandboxWorkDir
		argv = append(argv, p.bwrapArgs(dir)...)
	}
	argv = append(argv, p.python, "-I", "-")

	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := p.execute(runCtx, argv, dir, childEnv(home), code)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("python run: %w", ctx.Err())
	}
	res.TimedOut = res.TimedOut || errors.Is(runCtx.Err(), context.DeadlineExceeded)
	res.TimeoutSeconds = timeout.Seconds()
	res.MemoryMiB = p.opts.MemoryBytes >> 20
	res.MemoryExceeded = strings.Contains(res.Stderr, "MemoryError")
	res.Sandbox = SandboxLimitsOnly
	if sandboxed {
		res.Sandbox = SandboxBubblewrap
	}
	return res, nil
}

// execute starts argv as its own process tree with code on stdin, and
// kills the whole tree when ctx ends and again once the interpreter has
// exited, so no child it started outlives the call. Output goes through
// pipes the hub reads itself, so a leftover child holding them cannot hold
// up the result.
func (p *Python) execute(ctx context.Context, argv []string, dir string, env []string, code string) (*PythonResult, error) {
	stdout, stderr := newCappedBuffer(p.opts.MaxOutputBytes), newCappedBuffer(p.opts.MaxOutputBytes)
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("python run: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW)
		return nil, fmt.Errorf("python run: %w", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(code)
	cmd.Stdout, cmd.Stderr = outW, errW
	start := time.Now()
	group, err := proc.Start(cmd)
	closeAll(outW, errW)
	if err != nil {
		closeAll(outR, errR)
		return nil, fmt.Errorf("start python: %w", err)
	}
	defer func() { _ = group.Release() }()
	var readers sync.WaitGroup
	readers.Go(func() { drain(stdout, outR) })
	readers.Go(func() { drain(stderr, errR) })

	stopKiller := context.AfterFunc(ctx, func() { _ = group.Kill() })
	waitErr := cmd.Wait()
	stopKiller()
	_ = group.Kill() // children left behind by a clean exit
	waitReaders(&readers, outR, errR)

	res := &PythonResult{DurationMs: time.Since(start).Milliseconds()}
	res.ExitCode, res.Signal, res.TimedOut = exitDetails(cmd.ProcessState, waitErr)
	res.Stdout, res.StdoutTruncated = stdout.text()
	res.Stderr, res.StderrTruncated = stderr.text()
	return res, nil
}

// readerGrace is how long output may still arrive after the group was
// killed; a process that left the group (setsid) may hold the pipes open.
const readerGrace = 2 * time.Second

// waitReaders waits for the output readers, closing the pipes after
// readerGrace so an escaped process cannot hold the call up.
func waitReaders(readers *sync.WaitGroup, pipes ...*os.File) {
	done := make(chan struct{})
	go func() { readers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(readerGrace):
		closeAll(pipes...)
		<-done
	}
}

func drain(dst io.Writer, src *os.File) {
	_, _ = io.Copy(dst, src)
	_ = src.Close()
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// removeAll deletes a run's directory, first making every entry writable:
// the code may have made a folder read-only.
func removeAll(dir string, p *Python) {
	if os.RemoveAll(dir) == nil {
		return
	}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(path, 0o700)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		p.opts.Logger.Warn("python tool: could not remove a run directory", "dir", dir, "err", err)
	}
}
