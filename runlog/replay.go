package runlog

import (
	"errors"
	"fmt"

	"github.com/toolhub/toolhub/conductor"
)

// Why a run cannot be replayed.
var (
	ErrNoBodies              = errors.New("the run was recorded without request bodies (run log version 1)")
	ErrNoOrchestratorRequest = errors.New("the run sent no request to the orchestrator")
)

// FirstRequest returns the first request body run sent to the
// orchestrator, exactly as recorded: what a replay sends again.
func FirstRequest(run *conductor.Run) ([]byte, error) {
	unkept := false // a model call was made and its body not kept
	for _, s := range run.Steps {
		if s.Kind != conductor.StepModel {
			continue
		}
		if s.Alias == orchestratorAlias && len(s.Request) > 0 {
			return s.Request, nil
		}
		unkept = unkept || (s.Error == "" && len(s.Request) == 0)
	}
	if unkept {
		return nil, fmt.Errorf("run %s: %w", run.ID, ErrNoBodies)
	}
	return nil, fmt.Errorf("run %s: %w", run.ID, ErrNoOrchestratorRequest)
}
