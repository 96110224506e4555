package tools

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// systemPath is where the python tool looks for programs: the system's
// directories, never the hub's PATH (a user's PATH may hold shims and
// wrappers that need the very environment the tool withholds).
var systemPath = []string{"/usr/local/bin", "/usr/bin", "/bin", "/opt/homebrew/bin"}

// findSystemCommand resolves name in systemPath (an absolute name is only
// checked) and follows symbolic links to the real file.
func findSystemCommand(name string) (string, error) {
	candidates := []string{name}
	if !filepath.IsAbs(name) {
		if strings.ContainsRune(name, os.PathSeparator) {
			return "", fmt.Errorf("%q: want a bare name or an absolute path", name)
		}
		candidates = candidates[:0]
		for _, dir := range systemPath {
			candidates = append(candidates, filepath.Join(dir, name))
		}
	}
	for _, c := range candidates {
		info, err := os.Stat(c)
		if err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return filepath.EvalSymlinks(c)
		}
	}
	return "", fmt.Errorf("%s not found in %s", name, strings.Join(systemPath, ":"))
}

// sandboxWorkDir is where the run's temp dir appears inside bubblewrap.
const sandboxWorkDir = "/sandbox"

// limitArgs are prlimit's arguments: CPU seconds, address space, file size,
// open files and no core dumps, for the interpreter and every child.
func (p *Python) limitArgs(cpuSeconds int) []string {
	return []string{
		p.prlimit,
		"--cpu=" + strconv.Itoa(cpuSeconds),
		"--as=" + strconv.FormatInt(p.opts.MemoryBytes, 10),
		"--fsize=" + strconv.FormatInt(64<<20, 10),
		"--nofile=256",
		"--core=0",
		"--",
	}
}

// bwrapArgs run the interpreter with a read-only view of the system's
// program directories, nothing of /home, /root or /etc beyond what Python
// needs, a private /tmp, workDir bound at sandboxWorkDir, no network (a
// new, empty network namespace), its own PID namespace, no capabilities,
// and death when the hub's side of it dies.
func (p *Python) bwrapArgs(workDir string) []string {
	args := []string{p.bwrapPath,
		"--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
		"--ro-bind", "/usr", "/usr",
	}
	for _, dir := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64"} {
		args = append(args, systemDirArgs(dir)...)
	}
	if !strings.HasPrefix(p.python, "/usr/") {
		// an interpreter installed elsewhere: expose its prefix read-only
		prefix := filepath.Dir(filepath.Dir(p.python))
		args = append(args, "--ro-bind", prefix, prefix)
	}
	args = append(args,
		"--ro-bind-try", "/etc/alternatives", "/etc/alternatives",
		"--ro-bind-try", "/etc/localtime", "/etc/localtime",
		"--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
		"--bind", workDir, sandboxWorkDir, "--chdir", sandboxWorkDir,
		"--",
	)
	return args
}

// systemDirArgs mirror one top-level directory: merged-/usr systems make
// them symbolic links into /usr, older ones real directories.
func systemDirArgs(dir string) []string {
	info, err := os.Lstat(dir)
	switch {
	case err != nil:
		return nil
	case info.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(dir)
		if err != nil {
			return nil
		}
		return []string{"--symlink", target, dir}
	case info.IsDir():
		return []string{"--ro-bind", dir, dir}
	}
	return nil
}

// childEnv is the interpreter's whole environment: fixed values, nothing
// inherited from the hub.
func childEnv(home string) []string {
	return []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"LANG=C.UTF-8",
		"HOME=" + home,
		"TMPDIR=" + home,
		"MPLBACKEND=Agg",
		"OPENBLAS_NUM_THREADS=1",
	}
}

// chooseSandbox decides once whether bubblewrap works here, by running a
// trivial program in it: it can be installed yet refused user namespaces.
func (p *Python) chooseSandbox(run func(sandboxed bool) (*PythonResult, error)) (string, error) {
	p.probe.Do(func() {
		p.sandbox = SandboxLimitsOnly
		if p.bwrapPath == "" {
			return
		}
		res, err := run(true)
		if err == nil && res.ExitCode == 0 {
			p.sandbox = SandboxBubblewrap
			return
		}
		var reason string
		if err != nil {
			reason = err.Error()
		} else {
			reason = res.Status() + ": " + strings.TrimSpace(res.Stderr)
		}
		if p.opts.RequireSandbox {
			p.probeErr = errors.New("the bubblewrap sandbox does not work here (" + reason + ") and the config requires it")
			return
		}
		p.opts.Logger.Warn("python tool: bubblewrap does not work here; running code with resource limits only", "reason", reason)
	})
	return p.sandbox, p.probeErr
}

// Sandbox reports which isolation runs use, probing bubblewrap on the
// first call; it fails only when the sandbox is required and unusable.
// The probe ignores ctx's cancellation: a call cancelled during the probe
// must not leave every later call without the sandbox.
func (p *Python) Sandbox(ctx context.Context) (string, error) {
	return p.chooseSandbox(func(sandboxed bool) (*PythonResult, error) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		return p.run(ctx, "pass", 10*time.Second, sandboxed)
	})
}
