package policies

import (
	"fmt"
	"strings"
	"sync"

	"github.com/toolhub/toolhub/conductor"
)

// PlannerOptions are the config's orchestrator settings a Planner builds
// policies from.
type PlannerOptions struct {
	Policy      string  // the default policy ("" is the orchestrator)
	Fallback    string  // the orchestrator's fallback policy ("" is retrieve-answer)
	Temperature float64 // the orchestrator's sampling temperature
	MaxTurns    int     // the configured turn limit (0: the preferences' own)
	// Counter counts tokens for the prompt cuts (protocol §1): the
	// orchestrator server's tokenizer where it has one; nil: the estimate.
	Counter TokenCounter
	// DropSearchWithDocuments is the orchestrator's FRAMES setting
	// (Orchestrator.DropSearchWithDocuments).
	DropSearchWithDocuments bool
	// Variant is the research evaluation research mode follows
	// (Orchestrator.Variant).
	Variant Variant
}

// Planner is the conductor.Planner of toolhub: it picks the policy by name
// and runs each episode under the saved preferences tightened by the
// request's own preference and budget.
type Planner struct {
	opts PlannerOptions

	mu      sync.Mutex
	current func() Preferences // nil: unrestricted
}

// NewPlanner returns a planner; current reads the preferences in force at
// the start of each episode (a Store's Current follows the file live), and
// nil runs every episode unrestricted.
func NewPlanner(opts PlannerOptions, current func() Preferences) *Planner {
	return &Planner{opts: opts, current: current}
}

// SetPreferences replaces where the preferences are read from.
func (p *Planner) SetPreferences(current func() Preferences) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current = current
}

// Preferences returns the preferences in force for the next episode.
func (p *Planner) Preferences() Preferences {
	p.mu.Lock()
	current := p.current
	p.mu.Unlock()
	if current == nil {
		return Unrestricted()
	}
	return current()
}

// Plan implements conductor.Planner.
func (p *Planner) Plan(req conductor.Request, eps *conductor.Episodes) (conductor.Task, conductor.Policy, error) {
	override, err := requestOverride(req)
	if err != nil {
		return conductor.Task{}, nil, err
	}
	policy, name, err := p.Policy(req.Policy)
	if err != nil {
		return conductor.Task{}, nil, err
	}
	task := conductor.Task{Text: req.Task, Mode: req.Mode, PolicyName: name, MaxTurns: req.MaxTurns, Expected: req.Expected}
	if task.MaxTurns == 0 {
		task.MaxTurns = p.opts.MaxTurns
	}
	prefs := p.Preferences().Tighten(override)
	if pu, ok := policy.(preferenceUser); ok {
		pu.UsePreferences(prefs)
	}
	if o, ok := policy.(*Orchestrator); ok {
		if pu, ok := o.Fallback.(preferenceUser); ok {
			pu.UsePreferences(prefs) // a learned router standing in for the orchestrator
		}
	}
	return PrepareTask(task, prefs, eps), policy, nil
}

// preferenceUser is a policy that weighs its choices by the preferences in
// force (the learned routers' cost and latency weights).
type preferenceUser interface {
	UsePreferences(Preferences)
}

// Policy builds the policy named name ("" for the configured default) and
// says which name it got.
func (p *Planner) Policy(name string) (conductor.Policy, string, error) {
	if name == "" {
		name = p.opts.Policy
	}
	if name == "" {
		name = PolicyOrchestrator
	}
	orch := Orchestrator{Temperature: p.opts.Temperature, Counter: p.opts.Counter,
		DropSearchWithDocuments: p.opts.DropSearchWithDocuments, Variant: p.opts.Variant}
	if p.opts.Fallback != "" && (name == PolicyOrchestrator || strings.HasPrefix(name, PolicyOrchestratorPrefix)) {
		fb, err := NewFallback(p.opts.Fallback, Orchestrator{Temperature: p.opts.Temperature, Counter: p.opts.Counter})
		if err != nil {
			return nil, name, fmt.Errorf("orchestrator.fallback: %w", err)
		}
		orch.Fallback = fb
	}
	policy, err := NewPolicy(name, orch)
	return policy, name, err
}

// requestOverride reads the request's preference and budget; they apply
// only where they tighten the saved preferences.
func requestOverride(req conductor.Request) (Override, error) {
	var o Override
	if len(req.Preference) > 0 {
		var err error
		if o, err = ParseOverride(req.Preference); err != nil {
			return o, fmt.Errorf("preference: %w", err)
		}
	}
	return o.WithBudget(req.BudgetUSD), nil
}
