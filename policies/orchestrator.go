package policies

import (
	"github.com/toolhub/toolhub/conductor"
)

// AliasOrchestrator labels the orchestrator's own calls in the trace.
const AliasOrchestrator = "orchestrator"

// Orchestrator drives Orchestrator-8B (or any tool-calling model configured
// as orchestrator) in research mode (protocol §3) or tool mode (protocol
// §4). Its zero value works; without a reachable orchestrator it says so
// once and hands every later decision to Fallback (RetrieveAnswer when
// nil). It only chooses: the engine runs every call it asks for.
type Orchestrator struct {
	Temperature float64
	Preferences []string // preference sentences appended to the problem, before the task's own
	// PolicyText replaces the tool-mode <policy> text ToolModePolicy writes.
	PolicyText string
	// Privacy is the privacy setting the tool-mode <policy> states; the
	// planner sets it from the preferences in force (UsePreferences).
	Privacy  Privacy
	Counter  TokenCounter
	Fallback Fallback
	// DropSearchWithDocuments stops offering search in research mode once
	// the episode holds a document, as the paper's FRAMES evaluation does
	// (protocol §3.4, an optional setting); off, all three tools are
	// offered every turn, as in its HLE evaluation.
	DropSearchWithDocuments bool
	// Variant is the research evaluation whose context and prompts
	// research mode follows ("" is hle). FRAMES' own dropping of search is
	// DropSearchWithDocuments, which the config turns on with it.
	Variant Variant
}

// Fallback is a policy that needs no orchestrator: RetrieveAnswer and
// KNNPolicy. Its memory is RetrieveMemory.
type Fallback = conductor.Chooser[RetrieveMemory]

// phase is where a turn of the orchestrator stands: which call's outcome
// the next decision reads.
type phase int

const (
	phaseStart  phase = iota // the turn has made no call yet
	phaseDecide              // the orchestrator's request is out
	phaseQuery               // research: the search query writer's request is out
	phaseSearch              // research: the search tools are running
	phaseCode                // research: the code writer's request is out
	phasePython              // research: the python tool is running
	phaseAnswer              // research: the answer expert's request is out
	phaseExpert              // tool mode: call_expert's request is out
	phaseCalls               // tool mode: the chosen tool calls are running
)

// OrchestratorMemory is what the policy keeps between decisions.
type OrchestratorMemory struct {
	research ResearchState // research mode's evidence
	history  []Message     // tool mode's conversation
	fallback bool          // the fallback decides from now on
	fb       RetrieveMemory

	turn  int
	phase phase
	notes []string // observations for the next action

	table    aliasTable // the turn's aliases: research roles, or tool mode's experts
	specs    []ToolSpec // tool mode: the offered tools
	alias    Alias      // research: the chosen alias
	endpoint string     // research: its endpoint
	search   search     // research: the running search
	code     string     // research: the code sent to python
	calls    []turnCall // tool mode: the calls of this turn, run or refused
	next     int        // tool mode: calls already answered
	unread   string     // tool mode: the error of the calls that could not be read
}

// Begin starts an episode's decisions.
func (o *Orchestrator) Begin(st *conductor.State) conductor.Decider { return conductor.Begin(o, st) }

// Start returns the memory of a new episode.
func (o *Orchestrator) Start(*conductor.State) OrchestratorMemory { return OrchestratorMemory{} }

// Decide returns the next action from the outcome of the last one.
func (o *Orchestrator) Decide(st *conductor.State, mem OrchestratorMemory, last *conductor.Outcome) (conductor.Action, OrchestratorMemory) {
	a := o.decide(st, &mem, last)
	a.Notes = append(mem.notes, a.Notes...)
	mem.notes = nil
	return a, mem
}

func (o *Orchestrator) decide(st *conductor.State, mem *OrchestratorMemory, last *conductor.Outcome) conductor.Action {
	if mem.fallback {
		return o.fallbackStep(st, mem, last)
	}
	if st.Orchestrator == nil {
		return o.useFallback(st, mem, "no orchestrator model is configured or allowed")
	}
	if mem.turn != st.Turn {
		mem.turn, mem.phase = st.Turn, phaseStart
	}
	if st.Mode == conductor.ModeTools {
		return o.toolsStep(st, mem, last)
	}
	return o.researchStep(st, mem, last)
}

// UsePreferences takes the privacy setting in force, which the tool-mode
// <policy> states (protocol §4).
func (o *Orchestrator) UsePreferences(p Preferences) { o.Privacy = p.Privacy }

// policyText is tool mode's <policy> (protocol §4): PolicyText when set,
// else toolhub's own from the offered tools and the privacy in force.
func (o *Orchestrator) policyText(specs []ToolSpec) string {
	if o.PolicyText != "" {
		return o.PolicyText
	}
	return ToolModePolicy(specs, o.Privacy)
}

// UsesOrchestrator tells the hub that this policy needs the orchestrator
// model: an episode whose guard refuses it does not start.
func (o *Orchestrator) UsesOrchestrator() bool { return true }

// sentences are the preference sentences for st: the policy's own, then
// the task's (hub.Task.Preference).
func (o *Orchestrator) sentences(st *conductor.State) []string {
	return append(append([]string(nil), o.Preferences...), st.Preference)
}

func (o *Orchestrator) counter() TokenCounter {
	if o.Counter == nil {
		return DefaultCounter()
	}
	return o.Counter
}

func (o *Orchestrator) fallbackPolicy() Fallback {
	if o.Fallback != nil {
		return o.Fallback
	}
	return &RetrieveAnswer{Counter: o.Counter}
}

// useFallback hands this and every later decision to the fallback, which
// starts within the current turn.
func (o *Orchestrator) useFallback(st *conductor.State, mem *OrchestratorMemory, why string) conductor.Action {
	mem.fallback = true
	mem.note(why + "; using the fallback policy")
	mem.fb = o.fallbackPolicy().Start(st)
	return o.fallbackStep(st, mem, nil)
}

// fallbackStep lets the fallback decide on its own memory; its answers are
// marked forced.
func (o *Orchestrator) fallbackStep(st *conductor.State, mem *OrchestratorMemory, last *conductor.Outcome) conductor.Action {
	var a conductor.Action
	a, mem.fb = o.fallbackPolicy().Decide(st, mem.fb, last)
	a.Forced = a.Kind == conductor.ActAnswer
	return a
}

func (mem *OrchestratorMemory) note(text string) { mem.notes = append(mem.notes, text) }

// endTurn consumes the turn.
func endTurn() conductor.Action { return conductor.Action{Kind: conductor.ActEndTurn} }

// fail ends the episode on the hub's own failure.
func fail(err error) conductor.Action { return conductor.Action{Kind: conductor.ActFail, Err: err} }
