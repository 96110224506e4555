package tools

import (
	"fmt"
	"strings"
)

// PythonResult is what one run of the python tool produced.
type PythonResult struct {
	// ExitCode is the interpreter's exit status; -1 when a signal ended it.
	ExitCode int    `json:"exitCode"`
	Signal   string `json:"signal,omitempty"`
	// TimedOut is set when the wall-clock or CPU-time limit ended the run.
	TimedOut bool `json:"timedOut"`
	// MemoryExceeded is set when an allocation failed at the memory limit.
	MemoryExceeded  bool   `json:"memoryExceeded"`
	Stdout          string `json:"stdout"`
	Stderr          string `json:"stderr"`
	StdoutTruncated bool   `json:"stdoutTruncated,omitempty"`
	StderrTruncated bool   `json:"stderrTruncated,omitempty"`
	// Sandbox is SandboxBubblewrap or SandboxLimitsOnly.
	Sandbox    string `json:"sandbox"`
	DurationMs int64  `json:"durationMs"`
	// Limits echo what the run was allowed.
	TimeoutSeconds float64 `json:"timeoutSeconds"`
	MemoryMiB      int64   `json:"memoryMiB"`
}

// Failed reports whether the code did not run to a clean exit.
func (r *PythonResult) Failed() bool {
	return r.ExitCode != 0 || r.TimedOut || r.MemoryExceeded
}

// Status is a one-line account of how the run ended.
func (r *PythonResult) Status() string {
	var parts []string
	switch {
	case r.TimedOut:
		parts = append(parts, fmt.Sprintf("timed out after %gs and was killed", r.TimeoutSeconds))
	case r.Signal != "":
		parts = append(parts, "killed by signal "+r.Signal)
	default:
		parts = append(parts, fmt.Sprintf("exit status %d", r.ExitCode))
	}
	if r.MemoryExceeded {
		parts = append(parts, fmt.Sprintf("memory limit of %d MiB exceeded", r.MemoryMiB))
	}
	parts = append(parts, "sandbox: "+r.Sandbox)
	return strings.Join(parts, "; ")
}

// Summary is the text shown to a model: status, then stdout and stderr.
func (r *PythonResult) Summary() string {
	var b strings.Builder
	b.WriteString(r.Status())
	if r.Stdout != "" {
		b.WriteString("\n--- stdout ---\n" + r.Stdout)
	}
	if r.Stderr != "" {
		b.WriteString("\n--- stderr ---\n" + r.Stderr)
	}
	if r.Stdout == "" && r.Stderr == "" {
		b.WriteString("\n(no output: print the values you want to see)")
	}
	return b.String()
}
