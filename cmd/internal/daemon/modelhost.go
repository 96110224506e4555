package daemon

import (
	"log/slog"
	"os"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/modelhost"
)

// NewModelHost builds the supervisor of the orchestrator's model server
// from "orchestrator.launch", or returns nil when the config has none.
// Nothing starts until the caller calls Start: only long-running commands
// (serve, the desktop, model start) should launch a model server.
// References in its env are resolved through lk (lk.Env nil: os.LookupEnv).
func NewModelHost(m *config.Models, lk config.Lookup, log *slog.Logger) (*modelhost.Host, error) {
	if m == nil || m.Launch == nil {
		return nil, nil
	}
	if lk.Env == nil {
		lk.Env = os.LookupEnv
	}
	env, err := m.Launch.ExpandedEnvFrom(lk)
	if err != nil {
		return nil, err
	}
	return modelhost.New(modelhost.Spec{
		Command:      m.Launch.Command,
		Env:          env,
		Dir:          m.Launch.Cwd,
		HealthURL:    m.Launch.Health,
		StartTimeout: m.Launch.StartTimeout,
		Logger:       log,
	})
}
