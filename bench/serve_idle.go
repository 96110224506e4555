package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
)

// IdleOptions configure the idle memory benchmark.
type IdleOptions struct {
	// Toolhub is the binary run as "toolhub serve" (default: this
	// executable).
	Toolhub string
	// Everything, when set, is served by the config as the proxy benchmark
	// serves it; otherwise the config has no servers.
	Everything string
	// Settle is how long each toolhub runs before it is measured (default
	// 6 s): connected, its start-up memory returned, no call made.
	Settle time.Duration
}

// IdleReport is the resident memory of one idle "toolhub serve": on Linux
// from /proc/<pid>/smaps_rollup, split into anonymous and file pages;
// elsewhere the resident size alone (ps on macOS and the BSDs, the working
// set on Windows), with Anonymous and File 0.
type IdleReport struct {
	Mode      string `json:"mode"`                     // "stdio" or "http"
	RSS       int64  `json:"rssBytes"`                 // Rss
	Anonymous int64  `json:"anonymousBytes,omitempty"` // Anonymous: heap, stacks, runtime
	File      int64  `json:"fileBytes,omitempty"`      // the rest: mostly the binary's own pages
}

// RunIdle starts "toolhub serve" over stdio and over HTTP in turn, lets
// each settle and reads its resident memory.
func RunIdle(ctx context.Context, opts IdleOptions) ([]IdleReport, error) {
	if opts.Toolhub == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("idle bench: %w", err)
		}
		opts.Toolhub = exe
	}
	if opts.Settle <= 0 {
		opts.Settle = 6 * time.Second
	}
	dir, err := os.MkdirTemp("", "toolhub-bench-idle-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	config := filepath.Join(dir, "config.json")
	body := `{"mcpServers": {}}`
	if opts.Everything != "" {
		body = fmt.Sprintf(`{"mcpServers": {"everything": {"command": %s, "args": ["stdio"]}}}`, strconv.Quote(opts.Everything))
	}
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		return nil, err
	}
	var out []IdleReport
	for _, mode := range []string{"stdio", "http"} {
		r, err := idleOnce(ctx, opts, mode, config, dir)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// idleOnce runs one toolhub serve in mode and measures it once settled.
func idleOnce(ctx context.Context, opts IdleOptions, mode, config, dir string) (IdleReport, error) {
	args := []string{"--config", config, "serve"}
	if mode == "http" {
		args = append(args, "--http=127.0.0.1:0", "--token-file", filepath.Join(dir, "token"))
	}
	cmd := exec.Command(opts.Toolhub, args...)
	stdin, err := cmd.StdinPipe() // held open: a stdio toolhub ends with its input
	if err != nil {
		return IdleReport{}, err
	}
	defer stdin.Close()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return IdleReport{}, err
	}
	group, err := proc.Start(cmd)
	if err != nil {
		return IdleReport{}, fmt.Errorf("%s: start: %w", mode, err)
	}
	defer stopChild(cmd, group)
	if mode == "http" {
		if _, err := awaitEndpoint(stderr); err != nil {
			return IdleReport{}, fmt.Errorf("%s: %w", mode, err)
		}
	} else {
		go func() { _, _ = io.Copy(io.Discard, stderr) }()
	}
	select {
	case <-time.After(opts.Settle):
	case <-ctx.Done():
		return IdleReport{}, ctx.Err()
	}
	r, err := idleMemory(cmd.Process.Pid)
	if err != nil {
		return IdleReport{}, fmt.Errorf("%s: read resident memory: %w", mode, err)
	}
	r.Mode = mode
	return r, nil
}

// parseSmapsRollup reads Rss and Anonymous (kB) from smaps_rollup.
func parseSmapsRollup(data []byte) (IdleReport, error) {
	var r IdleReport
	var seen int
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "Rss" && name != "Anonymous") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return r, fmt.Errorf("smaps_rollup %s: %w", name, err)
		}
		if name == "Rss" {
			r.RSS = kb << 10
		} else {
			r.Anonymous = kb << 10
		}
		seen++
	}
	if seen < 2 {
		return r, errors.New("smaps_rollup has no Rss or no Anonymous line")
	}
	r.File = r.RSS - r.Anonymous
	return r, nil
}
