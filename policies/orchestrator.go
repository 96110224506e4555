package policies

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/llm"
)

// AliasOrchestrator labels the orchestrator's own calls in the trace.
const AliasOrchestrator = "orchestrator"

// Orchestrator drives Orchestrator-8B (or any tool-calling model configured
// as orchestrator) in research mode or tool mode. Its zero value works;
// without a reachable orchestrator it says so once and hands every later
// turn to Fallback (RetrieveAnswer when nil).
type Orchestrator struct {
	Temperature float64
	Preferences []string // preference sentences appended to the problem, before the task's own
	PolicyText  string   // tool mode: toolhub's own <policy> text
	Counter     TokenCounter
	Fallback    conductor.Policy
}

// orchestratorMemory is what the policy keeps between turns.
type orchestratorMemory struct {
	research        ResearchState
	history         []Message
	fallback        bool
	fallbackScratch any
}

// Decide runs one turn.
func (o *Orchestrator) Decide(ctx context.Context, st *conductor.State) (conductor.Decision, error) {
	mem, _ := st.Scratch.(*orchestratorMemory)
	if mem == nil {
		mem = &orchestratorMemory{}
		st.Scratch = mem
	}
	if mem.fallback {
		return o.runFallback(ctx, st, mem)
	}
	if st.Orchestrator == nil {
		return o.useFallback(ctx, st, mem, "no orchestrator model is configured or allowed")
	}
	if st.Mode == conductor.ModeTools {
		return o.decideTools(ctx, st, mem)
	}
	return o.decideResearch(ctx, st, mem)
}

// UsesOrchestrator tells the hub that this policy needs the orchestrator
// model: an episode whose guard refuses it does not start.
func (o *Orchestrator) UsesOrchestrator() bool { return true }

// sentences are the preference sentences for st: the policy's own, then
// the task's (hub.Task.Preference).
func (o *Orchestrator) sentences(st *conductor.State) []string {
	return append(append([]string(nil), o.Preferences...), st.Preference)
}

func (o *Orchestrator) fallback() conductor.Policy {
	if o.Fallback != nil {
		return o.Fallback
	}
	return &RetrieveAnswer{Temperature: o.Temperature, Counter: o.Counter}
}

func (o *Orchestrator) useFallback(ctx context.Context, st *conductor.State, mem *orchestratorMemory, why string) (conductor.Decision, error) {
	mem.fallback = true
	st.Observe(why + "; using the fallback policy")
	return o.runFallback(ctx, st, mem)
}

// runFallback lets the fallback keep its own memory in Scratch for the turn.
func (o *Orchestrator) runFallback(ctx context.Context, st *conductor.State, mem *orchestratorMemory) (conductor.Decision, error) {
	st.Scratch = mem.fallbackScratch
	d, err := o.fallback().Decide(ctx, st)
	mem.fallbackScratch = st.Scratch
	st.Scratch = mem
	d.Forced = d.Final
	return d, err
}

// callOrchestrator sends one decision request and returns the reply message.
// ok is false when the turn is consumed (transport or decode error).
func (o *Orchestrator) callOrchestrator(ctx context.Context, st *conductor.State, req ChatRequest) (Message, bool, error) {
	body, err := EncodeRequest(req)
	if err != nil {
		return Message{}, false, fmt.Errorf("render orchestrator request: %w", err)
	}
	reply, err := st.CallModel(ctx, conductor.ModelCall{Endpoint: st.Orchestrator.Name, Alias: AliasOrchestrator, Purpose: "decide", Body: body})
	if err != nil {
		return Message{}, false, err
	}
	msg, err := decodeMessage(reply.Body)
	if err != nil {
		st.Observe("orchestrator reply unreadable: " + err.Error())
		return Message{}, false, nil
	}
	return msg, true, nil
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

// orchestratorError turns a failed orchestrator call into the turn's
// outcome: unreachable switches to the fallback, anything else consumes
// the turn (already recorded as a step with its error).
func (o *Orchestrator) orchestratorError(ctx context.Context, st *conductor.State, mem *orchestratorMemory, err error) (conductor.Decision, error) {
	var unreachable *llm.ModelUnreachableError
	if errors.As(err, &unreachable) && ctx.Err() == nil {
		return o.useFallback(ctx, st, mem, "the orchestrator is unreachable ("+unreachable.URL+")")
	}
	return conductor.Decision{}, nil
}

// rolePrefix gives the alias prefix of each role, as in the paper.
var rolePrefix = map[string]string{RoleSearch: "search", RoleReason: "reasoner", RoleAnswer: "answer", RoleExpert: "expert"}

// aliasTable maps endpoints to aliases: role prefix plus a 1-based number in
// configuration order; never real model names.
type aliasTable struct {
	aliases  []Alias
	endpoint map[string]string // alias → endpoint name
}

func aliasesFor(models []llm.ModelInfo, roles ...string) aliasTable {
	t := aliasTable{endpoint: map[string]string{}}
	for _, role := range roles {
		n := 0
		for _, m := range models {
			if !m.HasRole(role) {
				continue
			}
			n++
			a := Alias{Name: rolePrefix[role] + "-" + strconv.Itoa(n), Role: role, Capability: m.Capability,
				PriceIn: m.PriceIn, PriceOut: m.PriceOut, Latency: m.Latency, AnswerStyle: m.AnswerStyle,
				ContextLength: m.ContextLength, Locality: m.Locality}
			if a.AnswerStyle == "" {
				a.AnswerStyle = StyleBoxed
			}
			t.aliases = append(t.aliases, a)
			t.endpoint[a.Name] = m.Name
		}
	}
	return t
}
