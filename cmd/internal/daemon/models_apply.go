package daemon

import (
	"fmt"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/llm"
)

// ApplyModels makes m's orchestrator and expert models the ones episodes
// call from now on, without a restart: an endpoint configured as before
// keeps its measured latencies, episodes already running finish with the
// models they had. The orchestrator keeps its name, so the conductor goes
// on finding it.
func (d *Daemon) ApplyModels(m *config.Models) error {
	if d.engine != nil {
		endpoints := append([]llm.ModelEndpoint{m.Orchestrator}, m.Endpoints...)
		if err := d.engine.Models().Replace(endpoints); err != nil {
			return fmt.Errorf("apply models: %w", err)
		}
		d.log.Info("models applied", "orchestrator", m.Orchestrator.BaseURL, "experts", len(m.Endpoints))
	}
	d.models.Store(m)
	return nil
}

// Models are the models and orchestrator section last applied, with the
// model entries left out of it (config.Models.LeftOut).
func (d *Daemon) Models() *config.Models { return d.models.Load() }
