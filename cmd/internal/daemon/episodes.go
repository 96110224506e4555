package daemon

import (
	"context"
	"fmt"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/policies"
)

// settleWait is how long an episode waits for servers still connecting.
const settleWait = 30 * time.Second

// RunEpisode runs one episode the way every surface does (the MCP tools,
// the desktop): it waits briefly for servers still connecting so the whole
// catalog is offered, runs under the current preferences tightened by o,
// reports each step through task.OnStep, and stores the run in the run log.
// The run is returned even when err is set, when it started at all.
func (d *Daemon) RunEpisode(ctx context.Context, task conductor.Task, policy string, o policies.Override) (*conductor.Run, error) {
	sctx, cancel := context.WithTimeout(ctx, settleWait)
	err := d.hub.WaitSettled(sctx)
	cancel()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("wait for servers: %w", ctx.Err())
	}
	if err != nil {
		d.log.Warn("some servers are still connecting; the episode starts without them", "err", err)
	}
	run, err := d.eps.RunWith(ctx, task, policy, o)
	if serr := d.runs.put(run); serr != nil {
		d.log.Warn("the run was not stored", "err", serr)
	}
	if err != nil {
		return run, fmt.Errorf("run episode: %w", err)
	}
	return run, nil
}
