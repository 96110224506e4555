package modelhost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"github.com/toolhub/toolhub/internal/mcpwire"
	"github.com/toolhub/toolhub/internal/supervise"
)

// Spec says how the hub launches and watches a model server such
// as vLLM, llama-server or Ollama.
type Spec struct {
	// Command is the program and its arguments, e.g. ["vllm", "serve", ...].
	Command []string
	// Env is added to the minimal environment the server gets (see childEnv).
	Env map[string]string
	// Dir is the working directory; "" means the hub's.
	Dir string
	// HealthURL answers 200 once the model is loaded (vLLM and llama-server
	// GET /health, Ollama GET /).
	HealthURL string
	// StartTimeout bounds how long loading may take (default 20 minutes:
	// downloading and loading weights is slow).
	StartTimeout time.Duration
	// PollInterval is the pause between health probes (default 1s).
	PollInterval time.Duration
	// StopGrace is how long the server gets after SIGTERM before SIGKILL
	// (default 10s, so vLLM can release GPU memory).
	StopGrace time.Duration
	// Restart bounds restarts after crashes. Zero means 3 failures within
	// an hour, waiting 2s to 1min between attempts: a model server takes
	// minutes to load, so a one-minute window would never fill up.
	Restart RestartPolicy
	Logger  *slog.Logger
}

// stderrTailBytes is how much of the server's output a status carries.
const stderrTailBytes = 2 << 10

// RestartPolicy bounds restarts after crashes (supervise.RestartPolicy).
type RestartPolicy = supervise.RestartPolicy

// State is where a hosted model server is in its life.
type State string

// The states of a hosted model server.
const (
	Stopped    State = "stopped"
	Starting   State = "starting" // running, not yet healthy (loading)
	Healthy    State = "healthy"
	Restarting State = "restarting"
	Failed     State = "failed" // gave up; LastError says why
	// External: the health URL already answered before launch, so
	// a server toolhub did not start is in use and nothing was launched.
	External State = "external"
)

// Status is a snapshot of a hosted model server.
type Status struct {
	State      State     `json:"state"`
	PID        int       `json:"pid,omitempty"`
	Since      time.Time `json:"since"`
	Restarts   int       `json:"restarts"`
	LastError  string    `json:"lastError,omitempty"`
	StderrTail string    `json:"stderrTail,omitempty"`
	HealthURL  string    `json:"healthUrl"`
	Command    []string  `json:"command"`
}

// Host supervises one model server process: it starts it in its own
// process group, waits for its health endpoint, restarts it with backoff
// when it crashes and stops the whole group on Stop.
type Host struct {
	spec Spec
	tail *mcpwire.Tail

	mu      sync.Mutex
	status  Status
	changed chan struct{} // closed and replaced on every status change
	cancel  context.CancelFunc
	done    chan struct{}
}

// New checks spec and fills its defaults; nothing starts yet.
func New(spec Spec) (*Host, error) {
	if len(spec.Command) == 0 || spec.Command[0] == "" {
		return nil, errors.New("model host: no command")
	}
	u, err := url.Parse(spec.HealthURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("model host: health URL %q is not an http(s) URL", spec.HealthURL)
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&spec.StartTimeout, 20 * time.Minute}, {&spec.PollInterval, time.Second}, {&spec.StopGrace, 10 * time.Second}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	if spec.Restart == (RestartPolicy{}) {
		spec.Restart = RestartPolicy{MaxFailures: 3, Window: time.Hour, BaseDelay: 2 * time.Second, MaxDelay: time.Minute}
	}
	if spec.Logger == nil {
		spec.Logger = slog.Default()
	}
	h := &Host{spec: spec, tail: mcpwire.NewTail(stderrTailBytes), changed: make(chan struct{})}
	h.status = Status{State: Stopped, Since: time.Now(), HealthURL: spec.HealthURL, Command: spec.Command}
	return h, nil
}

// Start launches the server and supervises it in the background until ctx
// ends or Stop is called. Calling it twice does nothing more.
func (h *Host) Start(ctx context.Context) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done != nil {
		return
	}
	ctx, h.cancel = context.WithCancel(ctx)
	h.done = make(chan struct{})
	h.status.State, h.status.Since = Starting, time.Now()
	go h.supervise(ctx)
}

// Stop ends supervision and the server's whole process group, and returns
// once they are gone.
func (h *Host) Stop() {
	h.mu.Lock()
	cancel, done := h.cancel, h.done
	h.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	<-done
}

// Status returns the current state with the server's output tail.
func (h *Host) Status() Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := h.status
	st.StderrTail = h.tail.String()
	return st
}

// WaitHealthy waits until the server is healthy. It fails when the host
// gives up (the error carries the reason and output tail), is stopped, or
// ctx ends.
func (h *Host) WaitHealthy(ctx context.Context) error {
	for {
		h.mu.Lock()
		st, changed := h.status, h.changed
		h.mu.Unlock()
		switch st.State {
		case Healthy, External:
			return nil
		case Failed:
			return fmt.Errorf("model server failed: %s\n%s", st.LastError, h.tail.String())
		case Stopped:
			if h.started() {
				return errors.New("model server stopped")
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("waiting for the model server (%s): %w", st.State, ctx.Err())
		}
	}
}

func (h *Host) started() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.done != nil
}

// setState records a transition and wakes WaitHealthy.
func (h *Host) setState(state State, pid int, lastErr string) {
	h.mu.Lock()
	h.status.State, h.status.PID, h.status.Since = state, pid, time.Now()
	if lastErr != "" || state == Healthy {
		h.status.LastError = lastErr
	}
	if state == Restarting {
		h.status.Restarts++
	}
	close(h.changed)
	h.changed = make(chan struct{})
	h.mu.Unlock()
	if lastErr != "" {
		h.spec.Logger.Warn("model server", "state", state, "err", lastErr)
		return
	}
	h.spec.Logger.Info("model server", "state", state, "pid", pid)
}
