package policies

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/llm"
)

// orchestratorCall is the action that sends one decision request
// (protocol §3.6 research, §4 tool mode).
func (o *Orchestrator) orchestratorCall(st *conductor.State, mem *OrchestratorMemory, req ChatRequest) conductor.Action {
	body, err := EncodeRequest(req)
	if err != nil {
		return fail(fmt.Errorf("render orchestrator request: %w", err))
	}
	mem.phase = phaseDecide
	return conductor.Action{Kind: conductor.ActModel, Model: conductor.ModelCall{
		Endpoint: st.Orchestrator.Name, Alias: AliasOrchestrator, Purpose: "decide", Body: body}}
}

// orchestratorReply reads the orchestrator's reply message from its
// outcome. When ok is false, a is the turn's action instead: an
// unreachable orchestrator, or one still loading after the engine waited
// for it, switches to the fallback; any other failure or an unreadable
// reply consumes the turn (the failure is already a step).
func (o *Orchestrator) orchestratorReply(st *conductor.State, mem *OrchestratorMemory, last *conductor.Outcome) (msg Message, a conductor.Action, ok bool) {
	if last.Err != nil {
		var unreachable *llm.ModelUnreachableError
		if errors.As(last.Err, &unreachable) && !last.Cancelled {
			return Message{}, o.useFallback(st, mem, "the orchestrator is unreachable ("+unreachable.URL+")"), false
		}
		var loading *llm.ModelLoadingError
		if errors.As(last.Err, &loading) && !last.Cancelled {
			return Message{}, o.useFallback(st, mem, "the orchestrator is still loading ("+loading.URL+")"), false
		}
		return Message{}, endTurn(), false
	}
	msg, err := decodeMessage(last.Reply.Body)
	if err != nil {
		mem.note("orchestrator reply unreadable: " + err.Error())
		return Message{}, endTurn(), false
	}
	return msg, conductor.Action{}, true
}

func decodeMessage(body []byte) (Message, error) {
	var resp ChatResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return Message{}, fmt.Errorf("decode completion: %w", err)
	}
	c, err := resp.FirstChoice()
	if err != nil {
		return Message{}, err
	}
	return c.Message, nil
}

// replyContent is the content of a successful model outcome.
func replyContent(last *conductor.Outcome) (string, error) {
	if last == nil || last.Err != nil || last.Reply == nil {
		if last != nil && last.Err != nil {
			return "", last.Err
		}
		return "", errors.New("no reply")
	}
	msg, err := decodeMessage(last.Reply.Body)
	if err != nil {
		return "", err
	}
	return msg.Content, nil
}
