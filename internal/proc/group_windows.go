//go:build windows

package proc

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// prepare creates the child suspended in a console process group of its
// own; attach puts it in the job before it runs a single instruction.
//
// A child shares toolhub's console, shown or hidden. When toolhub has none
// (the desktop app, a GUI program's child started without one), Windows
// would open a visible console window for each console program it starts
// (node, cmd.exe for npx.cmd, python); the child gets a hidden one instead.
func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_SUSPENDED
	if !hasConsole() {
		cmd.SysProcAttr.CreationFlags |= windows.CREATE_NO_WINDOW
	}
}

// hasConsole reports whether this process is attached to a console, shown
// or not: GetConsoleCP fails without one.
func hasConsole() bool {
	_, err := windows.GetConsoleCP()
	return err == nil
}

// job is a Job Object holding the child and all it starts.
type job struct {
	pid    uint32
	handle windows.Handle
	once   sync.Once
}

// attach creates a kill-on-close job, assigns the suspended child to it and
// resumes the child's threads.
func attach(cmd *exec.Cmd) (sysGroup, error) {
	pid := uint32(cmd.Process.Pid)
	h, err := newKillOnCloseJob()
	if err != nil {
		return nil, err
	}
	if err := assign(h, pid); err != nil {
		_ = windows.CloseHandle(h)
		return nil, err
	}
	if err := resumeThreads(pid); err != nil {
		_ = windows.CloseHandle(h)
		return nil, err
	}
	return &job{pid: pid, handle: h}, nil
}

func newKillOnCloseJob() (windows.Handle, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("create job object: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(h)
		return 0, fmt.Errorf("set kill-on-close on the job: %w", err)
	}
	return h, nil
}

func assign(h windows.Handle, pid uint32) error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return fmt.Errorf("open process %d: %w", pid, err)
	}
	defer windows.CloseHandle(p)
	if err := windows.AssignProcessToJobObject(h, p); err != nil {
		return fmt.Errorf("assign process %d to the job: %w", pid, err)
	}
	return nil
}

// resumeThreads resumes every thread of pid (a process created suspended
// has exactly one).
func resumeThreads(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("list threads: %w", err)
	}
	defer windows.CloseHandle(snap)
	entry := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &entry); err == nil; err = windows.Thread32Next(snap, &entry) {
		if entry.OwnerProcessID != pid {
			continue
		}
		t, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, entry.ThreadID)
		if err != nil {
			return fmt.Errorf("open thread %d: %w", entry.ThreadID, err)
		}
		_, err = windows.ResumeThread(t)
		_ = windows.CloseHandle(t)
		if err != nil {
			return fmt.Errorf("resume thread %d: %w", entry.ThreadID, err)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("list threads: %w", err)
	}
	if resumed == 0 {
		return fmt.Errorf("process %d has no thread to resume", pid)
	}
	return nil
}

// interrupt sends CTRL_BREAK_EVENT to the child's console process group.
// It fails when toolhub has no console or the child does not share it;
// the hard stop still ends the tree then.
func (j *job) interrupt() error {
	if err := windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, j.pid); err != nil {
		return fmt.Errorf("send CTRL_BREAK to process group %d: %w", j.pid, err)
	}
	return nil
}

// kill terminates every process in the job.
func (j *job) kill() error {
	if err := windows.TerminateJobObject(j.handle, 1); err != nil {
		return fmt.Errorf("terminate job of process %d: %w", j.pid, err)
	}
	return nil
}

// basicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which
// x/sys/windows does not declare.
type basicAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}

// gone is true once the job has no active process.
func (j *job) gone() bool {
	var info basicAccounting
	err := windows.QueryInformationJobObject(j.handle, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	return err == nil && info.ActiveProcesses == 0
}

// release closes the job handle; kill-on-close ends whatever is left.
func (j *job) release() error {
	var err error
	j.once.Do(func() { err = windows.CloseHandle(j.handle) })
	return err
}
