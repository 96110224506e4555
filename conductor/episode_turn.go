package conductor

import (
	"context"
	"errors"
	"fmt"
)

// refuseStart fails the run when policy needs the orchestrator and the
// episode's guard refuses it.
func (e *Episodes) refuseStart(ep *episode, policy Policy) error {
	op, ok := policy.(OrchestratedPolicy)
	if !ok || !op.UsesOrchestrator() || e.orchestrator == "" {
		return nil
	}
	m, _ := e.models.Get(e.orchestrator)
	allowed, reason := ep.guard.AllowModel(m.Info())
	if allowed {
		return nil
	}
	ep.run.Status = RunFailed
	ep.run.Error = fmt.Sprintf("refusing to start: the orchestrator model %q is not allowed: %s", e.orchestrator, reason)
	return &GuardError{Target: "orchestrator model " + e.orchestrator, Reason: reason + "; the episode did not start"}
}

// loop runs the turns (protocol §3.6 for research mode, §4 for tool mode):
// each asks the policy for its actions until one ends the turn, and the
// episode ends on an answer, a failure, a limit or the turn limit.
func (e *Episodes) loop(ctx context.Context, st *State, policy Policy) error {
	ep := st.ep
	decide := policy.Begin(st)
	var last *Outcome
	for turn := 1; turn <= st.MaxTurns; turn++ {
		if ctx.Err() != nil {
			ep.endByContext(ctx)
			return nil
		}
		ep.mu.Lock()
		ep.turn, st.Turn = turn, turn
		ep.mu.Unlock()
		// Each turn shows the latest measured latencies (protocol §6).
		ep.offerModels(ep.guard).set(st)
		var a Action
		a, last = ep.runTurn(ctx, st, decide, last)
		if done, err := ep.conclude(ctx, a); done {
			return err
		}
	}
	ep.run.Status = RunNoAnswer
	ep.run.Error = "no answer within " + Count(st.MaxTurns, "turn")
	return nil
}

// MaxActionsPerTurn bounds the tool and model actions of one turn, so that
// a policy that never ends its turn cannot hold the episode.
const MaxActionsPerTurn = 32

// runTurn runs the policy's actions until one ends the turn (protocol §3.6
// steps 1–5, §4) and returns that action; carry is the outcome the next
// turn's first decision sees.
func (ep *episode) runTurn(ctx context.Context, st *State, decide Decider, last *Outcome) (end Action, carry *Outcome) {
	for n := 0; ; n++ {
		a := decide(st, last)
		if a.Kind != ActTool && a.Kind != ActModel {
			ep.act(ctx, st, a)
			return a, nil
		}
		if n == MaxActionsPerTurn {
			return Action{Kind: ActFail, Err: fmt.Errorf("the policy took more than %d actions in one turn", MaxActionsPerTurn)}, nil
		}
		last = ep.act(ctx, st, a)
		if a.EndTurn {
			return Action{Kind: ActEndTurn}, last
		}
	}
}

// conclude applies the action that ended a turn (protocol §3.6 steps 6–7):
// an answer, a failure, or a limit or context that ended the episode
// meanwhile. done says the episode is over; err is set when it failed.
func (ep *episode) conclude(ctx context.Context, a Action) (done bool, err error) {
	switch {
	case ctx.Err() != nil:
		ep.endByContext(ctx)
		return true, nil
	case a.Kind == ActAnswer && !ep.refusedByLimit():
		ep.run.Status, ep.run.Answer, ep.run.Forced = RunAnswered, a.Answer, a.Forced
		ep.record(Step{Kind: StepAnswer, Text: a.Answer})
		return true, nil
	case ep.limited():
		ep.endByLimit()
		return true, nil
	case a.Kind == ActFail:
		if a.Err == nil {
			a.Err = errors.New("the policy failed without a reason")
		}
		ep.run.Status, ep.run.Error = RunFailed, a.Err.Error()
		return true, fmt.Errorf("run %s turn %d: %w", ep.run.ID, ep.turn, a.Err)
	}
	return false, nil
}
