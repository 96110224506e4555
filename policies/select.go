package policies

import (
	"encoding/json"
	"fmt"
	"slices"
)

// MaxToolModeCalls caps the calls run from one tool-mode reply.
const MaxToolModeCalls = 5

// Call is a candidate that passed the checks and will run.
type Call struct {
	Index     int // position among the reply's candidates
	ID        string
	Name      string
	Arguments json.RawMessage
	Alias     string // the model (research) or expert (call_expert) argument
}

// Rejection is a candidate that will not run, with the reason.
type Rejection struct {
	Index   int
	Name    string
	Reason  string // e.g. `unknown tool "web_browse"`
	Ignored bool   // valid, but another call took its place
	Alias   string // the alias a call named when it is not offered
}

// Observation is the trace line of a rejection, e.g.
// `invalid tool call: unknown tool "web_browse"`.
func (r Rejection) Observation() string {
	if r.Ignored {
		return fmt.Sprintf("ignored tool call %s: %s", r.Name, r.Reason)
	}
	return "invalid tool call: " + r.Reason
}

// Reasons for valid calls that do not run.
const (
	reasonFirstValidOnly = "only the first valid call runs"
	reasonExpertAlone    = "call_expert runs alone"
	reasonOneExpert      = "only the first call_expert runs"
	reasonCallCap        = "at most 5 calls run per reply"
)

// SelectResearchCall walks the candidates in order and picks the first
// valid one: parsed without error, naming a tool offered this turn, with a
// "model" argument that is an alias offered for that tool. Every other
// candidate is returned as a rejection: invalid ones with their reason, later
// valid ones as ignored. chosen is nil when no candidate is valid.
func SelectResearchCall(cands []Candidate, offered Offered) (chosen *Call, rejected []Rejection) {
	for i, c := range cands {
		alias, reason := checkResearchCall(c, offered)
		switch {
		case reason != "":
			rejected = append(rejected, Rejection{Index: i, Name: c.Name, Reason: reason, Alias: alias})
		case chosen != nil:
			rejected = append(rejected, Rejection{Index: i, Name: c.Name, Reason: reasonFirstValidOnly, Ignored: true})
		default:
			chosen = &Call{Index: i, ID: c.ID, Name: c.Name, Arguments: c.Arguments, Alias: alias}
		}
	}
	return chosen, rejected
}

// checkResearchCall returns the alias of a valid call, or why it is
// invalid (with the alias when it names one that is not offered).
func checkResearchCall(c Candidate, offered Offered) (alias, reason string) {
	if c.Err != nil {
		return "", c.Err.Error()
	}
	if len(offered[c.Name]) == 0 {
		if isResearchTool(c.Name) {
			return "", fmt.Sprintf("tool %q is not offered this turn", c.Name)
		}
		return "", fmt.Sprintf("unknown tool %q", c.Name)
	}
	alias, err := stringArgument(c.Arguments, "model")
	if err != nil {
		return "", err.Error()
	}
	if !offered.allows(c.Name, alias) {
		return alias, fmt.Sprintf("alias %q is not offered for %s", alias, c.Name)
	}
	return alias, ""
}

func isResearchTool(name string) bool {
	return name == ToolSearch || name == ToolReason || name == ToolAnswer
}

// ToolModeDecision is what a tool-mode reply asks the hub to run.
type ToolModeDecision struct {
	Calls    []Call      // offered tool calls to run in order, at most 5
	Expert   *Call       // a valid call_expert: the expert acts for this turn instead
	Rejected []Rejection // invalid candidates and valid ones that do not run
}

// SelectToolModeCalls checks every candidate against the offered tool names
// and expert aliases. When a valid call_expert is among them, the first one
// runs alone and the rest are ignored; otherwise the valid calls run in
// order, at most 5.
func SelectToolModeCalls(cands []Candidate, offeredTools, experts []string) ToolModeDecision {
	var d ToolModeDecision
	var valid []Call
	for i, c := range cands {
		call, reason := checkToolModeCall(i, c, offeredTools, experts)
		if reason != "" {
			d.Rejected = append(d.Rejected, Rejection{Index: i, Name: c.Name, Reason: reason, Alias: call.Alias})
			continue
		}
		if call.Name == ToolExperts && d.Expert == nil {
			d.Expert = &call
			continue
		}
		valid = append(valid, call)
	}
	for _, call := range valid {
		switch {
		case d.Expert != nil && call.Name == ToolExperts:
			d.Rejected = append(d.Rejected, ignored(call, reasonOneExpert))
		case d.Expert != nil:
			d.Rejected = append(d.Rejected, ignored(call, reasonExpertAlone))
		case len(d.Calls) == MaxToolModeCalls:
			d.Rejected = append(d.Rejected, ignored(call, reasonCallCap))
		default:
			d.Calls = append(d.Calls, call)
		}
	}
	slices.SortStableFunc(d.Rejected, func(a, b Rejection) int { return a.Index - b.Index })
	return d
}

func checkToolModeCall(i int, c Candidate, offeredTools, experts []string) (Call, string) {
	if c.Err != nil {
		return Call{}, c.Err.Error()
	}
	call := Call{Index: i, ID: c.ID, Name: c.Name, Arguments: c.Arguments}
	if c.Name == ToolExperts && len(experts) > 0 {
		expert, err := stringArgument(c.Arguments, "expert")
		if err != nil {
			return Call{}, err.Error()
		}
		if !slices.Contains(experts, expert) {
			return Call{Alias: expert}, fmt.Sprintf("expert %q is not offered", expert)
		}
		call.Alias = expert
		return call, ""
	}
	if !slices.Contains(offeredTools, c.Name) {
		return Call{}, fmt.Sprintf("unknown tool %q", c.Name)
	}
	return call, ""
}

func ignored(c Call, reason string) Rejection {
	return Rejection{Index: c.Index, Name: c.Name, Reason: reason, Ignored: true}
}
