package daemon

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/mcp"
	"github.com/toolhub/toolhub/policies"
)

// conductorTimeout bounds one orchestrate or research call as the hub sees
// it; an episode's own deadline and turn cap normally end it much sooner.
const conductorTimeout = 2 * time.Hour

// conductorSpec puts the orchestrate and research tools in the hub as a
// local, unprefixed in-process server.
func conductorSpec(c *mcp.Conductor) hub.ServerSpec {
	return builtinSpec(mcp.ConductorServerName, c.Server(), hub.LocalityLocal, conductorTimeout)
}

// isConductorTool reports whether t is one of the conductor's own tools,
// which an episode must never be offered (it would call itself).
func isConductorTool(t *hub.Tool) bool {
	return t.Server == builtinPrefix+mcp.ConductorServerName
}

// conductorRunner runs the conductor's episodes on the daemon, which
// exists only once the hub is built.
type conductorRunner struct {
	mu sync.RWMutex
	d  *Daemon
}

func (c *conductorRunner) set(d *Daemon) {
	c.mu.Lock()
	c.d = d
	c.mu.Unlock()
}

// RunEpisode implements tools.EpisodeRunner.
func (c *conductorRunner) RunEpisode(ctx context.Context, req mcp.EpisodeRequest, onStep func(conductor.Step)) (*conductor.Run, error) {
	c.mu.RLock()
	d := c.d
	c.mu.RUnlock()
	if d == nil {
		return nil, errors.New("the conductor is not ready")
	}
	override, err := requestOverride(req)
	if err != nil {
		return nil, err
	}
	return d.RunEpisode(ctx, conductor.Task{Text: req.Task, Mode: req.Mode, OnStep: onStep}, "", override)
}

// requestOverride reads the call's preference and budget_usd arguments; the
// runner applies them only where they tighten the saved preferences.
func requestOverride(req mcp.EpisodeRequest) (policies.Override, error) {
	var o policies.Override
	if len(req.Preference) > 0 {
		var err error
		if o, err = policies.ParseOverride(req.Preference); err != nil {
			return o, fmt.Errorf("preference: %w", err)
		}
	}
	return o.WithBudget(req.BudgetUSD), nil
}
