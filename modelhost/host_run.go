package modelhost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
	"github.com/toolhub/toolhub/internal/supervise"
)

// errNotHealthy means the server kept running but its health endpoint never
// answered 200 within the start timeout; restarting would not help.
var errNotHealthy = errors.New("not healthy")

// supervise runs the server until ctx ends, restarting it after crashes
// until the restart policy gives up. When a server already answers on the
// health URL, it launches nothing: a second server could not bind the port.
func (h *Host) supervise(ctx context.Context) {
	defer close(h.done)
	if CheckHealth(ctx, h.spec.HealthURL, healthProbeTimeout) == nil {
		h.setState(External, 0, "")
		<-ctx.Done()
		h.setState(Stopped, 0, "")
		return
	}
	failures := supervise.NewFailureLog(h.spec.Restart)
	for {
		err := h.runOnce(ctx)
		if ctx.Err() != nil {
			h.setState(Stopped, 0, "")
			return
		}
		var final restartless
		if errors.As(err, &final) {
			h.setState(Failed, 0, err.Error())
			return
		}
		if n := failures.Record(time.Now()); failures.Exhausted() {
			h.setState(Failed, 0, fmt.Sprintf("%v; gave up after %d failures within %s",
				err, n, failures.Policy.Window))
			return
		}
		h.setState(Restarting, 0, err.Error())
		if !supervise.Sleep(ctx, failures.Delay()) {
			h.setState(Stopped, 0, "")
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
func (h *Host) runOnce(ctx context.Context) error {
	p, err := proc.StartChild(proc.ChildSpec{Command: h.spec.Command[0], Args: h.spec.Command[1:],
		Env: h.spec.Env, Dir: h.spec.Dir}, h.tail)
	if err != nil {
		return restartless{err}
	}
	go proc.Drain(h.tail, p.Stdout) // servers log to stdout too; keep it drained
	defer h.stopServer(p)
	h.setState(Starting, p.Pid(), "")
	if err := h.awaitHealthy(ctx, p); err != nil {
		if errors.Is(err, errNotHealthy) {
			return restartless{err}
		}
		return err
	}
	h.setState(Healthy, p.Pid(), "")
	select {
	case <-p.Exited():
		return fmt.Errorf("model server exited: %s", p.ExitReason())
	case <-ctx.Done():
		return ctx.Err()
	}
}

// awaitHealthy probes the health URL until it answers 200. It fails when the
// process exits, the start timeout passes or ctx ends.
func (h *Host) awaitHealthy(ctx context.Context, p *proc.Child) error {
	deadline := time.NewTimer(h.spec.StartTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(h.spec.PollInterval)
	defer tick.Stop()
	for {
		if CheckHealth(ctx, h.spec.HealthURL, healthProbeTimeout) == nil {
			return nil
		}
		select {
		case <-p.Exited():
			return fmt.Errorf("model server exited while loading: %s", p.ExitReason())
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
func (h *Host) stopServer(p *proc.Child) { p.Terminate(h.spec.StopGrace) }

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
