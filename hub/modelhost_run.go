package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
)

// errNotHealthy means the server kept running but its health endpoint never
// answered 200 within the start timeout; restarting would not help.
var errNotHealthy = errors.New("not healthy")

// supervise runs the server until ctx ends, restarting it after crashes
// until the restart policy gives up. When a server already answers on the
// health URL, it launches nothing: a second server could not bind the port.
func (h *ModelHost) supervise(ctx context.Context) {
	defer close(h.done)
	if CheckHealth(ctx, h.spec.HealthURL, healthProbeTimeout) == nil {
		h.setState(ModelHostExternal, 0, "")
		<-ctx.Done()
		h.setState(ModelHostStopped, 0, "")
		return
	}
	failures := newFailureLog(h.spec.Restart)
	for {
		err := h.runOnce(ctx)
		if ctx.Err() != nil {
			h.setState(ModelHostStopped, 0, "")
			return
		}
		var final restartless
		if errors.As(err, &final) {
			h.setState(ModelHostFailed, 0, err.Error())
			return
		}
		if n := failures.record(time.Now()); failures.exhausted() {
			h.setState(ModelHostFailed, 0, fmt.Sprintf("%v; gave up after %d failures within %s",
				err, n, failures.policy.Window))
			return
		}
		h.setState(ModelHostRestarting, 0, err.Error())
		if !sleepCtx(ctx, failures.delay()) {
			h.setState(ModelHostStopped, 0, "")
			return
		}
	}
}

// restartless marks an error after which a restart cannot help.
type restartless struct{ error }

func (r restartless) Unwrap() error { return r.error }

// runOnce starts the server, waits for it to become healthy, then waits for
// it to exit. It returns why the server ended; a restartless error means
// supervision should stop.
func (h *ModelHost) runOnce(ctx context.Context) error {
	spec := ServerSpec{Name: "model-host", Command: h.spec.Command[0], Args: h.spec.Command[1:],
		Env: h.spec.Env, Cwd: h.spec.Dir}
	p, err := startChild(spec, h.tail)
	if err != nil {
		return restartless{err}
	}
	go copyStderr(h.tail, p.stdout) // servers log to stdout too; keep it drained
	defer h.stopServer(p)
	h.setState(ModelHostStarting, p.pid(), "")
	if err := h.awaitHealthy(ctx, p); err != nil {
		if errors.Is(err, errNotHealthy) {
			return restartless{err}
		}
		return err
	}
	h.setState(ModelHostHealthy, p.pid(), "")
	select {
	case <-p.exited:
		return fmt.Errorf("model server exited: %s", p.exitReason())
	case <-ctx.Done():
		return ctx.Err()
	}
}

// awaitHealthy probes the health URL until it answers 200. It fails when the
// process exits, the start timeout passes or ctx ends.
func (h *ModelHost) awaitHealthy(ctx context.Context, p *childProcess) error {
	deadline := time.NewTimer(h.spec.StartTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(h.spec.PollInterval)
	defer tick.Stop()
	for {
		if CheckHealth(ctx, h.spec.HealthURL, healthProbeTimeout) == nil {
			return nil
		}
		select {
		case <-p.exited:
			return fmt.Errorf("model server exited while loading: %s", p.exitReason())
		case <-deadline.C:
			return fmt.Errorf("model server %w: %s did not answer 200 within %s", errNotHealthy,
				h.spec.HealthURL, h.spec.StartTimeout)
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// stopServer ends the server's process tree: the graceful stop (SIGTERM,
// CTRL_BREAK on Windows), then a kill once StopGrace has passed. A model
// server does not exit when its stdin closes, so unlike an MCP child it is
// signalled at once.
func (h *ModelHost) stopServer(p *childProcess) {
	p.closeOnce.Do(func() {
		proc.Stop(p.group, p.exited, proc.StopOptions{Grace: h.spec.StopGrace})
		_ = p.group.Release()
		_ = p.stdin.Close()
		_ = p.stdout.Close()
	})
}

// healthProbeTimeout bounds one health request.
const healthProbeTimeout = 5 * time.Second

// CheckHealth sends GET url and succeeds on a 200 answer within timeout.
func CheckHealth(ctx context.Context, url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("health check: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health check: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health check: %s answered %s", url, resp.Status)
	}
	return nil
}

// sleepCtx waits d or until ctx ends; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
