package policies

import (
	"time"

	"github.com/toolhub/toolhub/conductor"
)

// PrepareTask puts p on a task for eps: the guard (NewGuard over eps's
// catalog and models), the preference sentence of what that guard offers,
// and the budget, deadline and turn limit. A budget, deadline or turn limit
// already on the task is kept when it is lower. Any guard already on the
// task is replaced.
func PrepareTask(task conductor.Task, p Preferences, eps *conductor.Episodes) conductor.Task {
	task.Guard = NewGuard(p, GuardScope{Tools: eps.Catalog(), Models: eps.Models().List(), Orchestrator: eps.Orchestrator()})
	task.BudgetUSD = lowerLimit(task.BudgetUSD, p.BudgetUSD)
	task.Deadline = time.Duration(lowerLimit(float64(task.Deadline), float64(p.Deadline)))
	if task.MaxTurns <= 0 || task.MaxTurns > p.Turns() {
		task.MaxTurns = p.Turns()
	}
	mode := task.Mode
	if mode == "" {
		mode = conductor.ModeResearch
	}
	tools, models, roster := eps.Offered(task)
	task.Preference = Sentence(p, mode, Offer{Roster: roster, Models: models, Tools: tools})
	return task
}
