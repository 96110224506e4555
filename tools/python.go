package tools

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// PythonServerName names the built-in python provider in the hub.
const PythonServerName = "python"

// Defaults of the python tool.
const (
	DefaultPythonTimeout    = 30 * time.Second
	DefaultPythonMaxTimeout = 60 * time.Second
	DefaultPythonMemory     = 1 << 30  // bytes of address space
	DefaultPythonOutput     = 64 << 10 // bytes per stream
	maxPythonCode           = 256 << 10
)

// PythonOptions configure the python provider. Zero values mean defaults.
type PythonOptions struct {
	// Command is the interpreter: an absolute path, or a name looked up in
	// the system directories (systemPath), never in the hub's PATH (default
	// python3).
	Command        string
	DefaultTimeout time.Duration
	MaxTimeout     time.Duration
	MemoryBytes    int64 // RLIMIT_AS of the interpreter and its children
	MaxOutputBytes int   // kept per stream; the rest is counted and dropped
	// TempRoot is where the per-run working directories are made (default
	// the system temp dir).
	TempRoot string
	// RequireSandbox refuses to run code unless bubblewrap works here;
	// otherwise code runs with resource limits only when it does not.
	RequireSandbox bool
	// NoSandbox never uses bubblewrap (resource limits only).
	NoSandbox bool
	Logger    *slog.Logger
}

// Python runs Python code for MCP clients and the orchestrator: one child
// process per call with a timeout, resource limits, an empty temp dir and
// a fixed minimal environment, inside bubblewrap when it is installed.
type Python struct {
	opts      PythonOptions
	python    string // resolved interpreter
	prlimit   string // util-linux prlimit, which sets the limits
	bwrapPath string // "" when bubblewrap is not installed

	probe    sync.Once
	sandbox  string // SandboxBubblewrap or SandboxLimitsOnly once probed
	probeErr error
}

// The isolation a run had, as reported in results.
const (
	SandboxBubblewrap = "bubblewrap"
	SandboxLimitsOnly = "rlimits-only"
)

// NewPython finds the interpreter and prlimit; it fails when either is
// missing (the tool is then not offered).
func NewPython(opts PythonOptions) (*Python, error) {
	if pythonUnsupported != "" {
		return nil, fmt.Errorf("python tool: %s", pythonUnsupported)
	}
	opts = opts.withDefaults()
	python, err := findSystemCommand(opts.Command)
	if err != nil {
		return nil, fmt.Errorf("python tool: interpreter: %w", err)
	}
	prlimit, err := findSystemCommand("prlimit")
	if err != nil {
		return nil, fmt.Errorf("python tool: prlimit (util-linux) sets its resource limits: %w", err)
	}
	p := &Python{opts: opts, python: python, prlimit: prlimit}
	if !opts.NoSandbox {
		p.bwrapPath, _ = findSystemCommand("bwrap")
	}
	if opts.RequireSandbox && p.bwrapPath == "" {
		return nil, fmt.Errorf("python tool: the config requires the bubblewrap sandbox, and bwrap is not installed")
	}
	return p, nil
}

func (o PythonOptions) withDefaults() PythonOptions {
	if o.Command == "" {
		o.Command = "python3"
	}
	o.MaxTimeout = orDuration(o.MaxTimeout, DefaultPythonMaxTimeout)
	o.DefaultTimeout = min(orDuration(o.DefaultTimeout, DefaultPythonTimeout), o.MaxTimeout)
	if o.MemoryBytes <= 0 {
		o.MemoryBytes = DefaultPythonMemory
	}
	if o.MaxOutputBytes <= 0 {
		o.MaxOutputBytes = DefaultPythonOutput
	}
	if o.TempRoot == "" {
		o.TempRoot = os.TempDir()
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

func orDuration(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Server is the in-process MCP server holding the python tool.
func (p *Python) Server() *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer("toolhub-python", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(p.tool(), p.handle)
	return s
}

func (p *Python) tool() mcpgo.Tool {
	return mcpgo.NewTool("python",
		mcpgo.WithDescription("Run Python 3 code on this machine and return its stdout and stderr. Print what you "+
			"need to see. Each call starts fresh in an empty working directory that is deleted afterwards; "+
			"there is no input on stdin, no access to the user's environment variables, and limits on time, "+
			fmt.Sprintf("memory (%d MiB) and output (%d KiB per stream). ", p.opts.MemoryBytes>>20, p.opts.MaxOutputBytes>>10)+
			"The network and the user's files are out of reach only when the bubblewrap sandbox is available; "+
			"the result says which sandbox ran the code."),
		mcpgo.WithString("code", mcpgo.Required(), mcpgo.Description("a complete Python 3 program")),
		mcpgo.WithNumber("timeout_seconds", mcpgo.Min(1), mcpgo.Max(p.opts.MaxTimeout.Seconds()),
			mcpgo.Description(fmt.Sprintf("wall-clock limit in seconds (default %g, at most %g)",
				p.opts.DefaultTimeout.Seconds(), p.opts.MaxTimeout.Seconds()))),
		mcpgo.WithOpenWorldHintAnnotation(false),
	)
}

func (p *Python) handle(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	code := req.GetString("code", "")
	if strings.TrimSpace(code) == "" {
		return mcpgo.NewToolResultError("code is empty"), nil
	}
	if len(code) > maxPythonCode {
		return mcpgo.NewToolResultError(fmt.Sprintf("code is %d bytes; the limit is %d", len(code), maxPythonCode)), nil
	}
	timeout := time.Duration(req.GetFloat("timeout_seconds", 0) * float64(time.Second))
	res, err := p.Run(ctx, code, timeout)
	if err != nil {
		return mcpgo.NewToolResultError("python did not run: " + err.Error()), nil
	}
	out := mcpgo.NewToolResultText(res.Summary())
	out.StructuredContent = res
	out.IsError = res.Failed()
	return out, nil
}
