package conductor

import (
	"slices"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// Guard decides what an episode may offer and call. The hub consults it
// before offering a tool or model to a policy and again before every call,
// so a policy can never reach what the guard refuses.
type Guard interface {
	// AllowTool reports whether the catalog tool may be offered and called,
	// and why not when it may not.
	AllowTool(tool *hub.Tool) (ok bool, reason string)
	// AllowModel reports the same for a model endpoint.
	AllowModel(model llm.ModelInfo) (ok bool, reason string)
}

// PermissiveGuard allows everything.
type PermissiveGuard struct{}

// AllowTool allows every tool.
func (PermissiveGuard) AllowTool(*hub.Tool) (bool, string) { return true, "" }

// AllowModel allows every model.
func (PermissiveGuard) AllowModel(llm.ModelInfo) (bool, string) { return true, "" }

// GuardFuncs adapts two functions to a Guard; a nil function allows all.
type GuardFuncs struct {
	Tool  func(*hub.Tool) (bool, string)
	Model func(llm.ModelInfo) (bool, string)
}

// AllowTool calls Tool.
func (g GuardFuncs) AllowTool(t *hub.Tool) (bool, string) {
	if g.Tool == nil {
		return true, ""
	}
	return g.Tool(t)
}

// AllowModel calls Model.
func (g GuardFuncs) AllowModel(m llm.ModelInfo) (bool, string) {
	if g.Model == nil {
		return true, ""
	}
	return g.Model(m)
}

// GuardError reports a call the guard refused.
type GuardError struct {
	Target string
	Reason string
}

func (e *GuardError) Error() string {
	return "not allowed: " + e.Target + ": " + e.Reason
}

// RoleGuard is a Guard that may also narrow the roles a model is offered
// for (a remote model kept only for a role no local model has). The hub
// offers the model with the narrowed roles and refuses a call made for a
// role the guard removed.
type RoleGuard interface {
	Guard
	// ModelRoles returns the roles model may serve, a subset of its own.
	ModelRoles(model llm.ModelInfo) []string
}

// modelRoles asks g for the roles of m: all of them unless g narrows them.
func modelRoles(g Guard, m llm.ModelInfo) []string {
	if rg, ok := g.(RoleGuard); ok {
		return rg.ModelRoles(m)
	}
	return m.Roles
}

// bothGuards allows only what both guards allow: a task's guard narrows the
// episodes' default, never widens it.
type bothGuards struct{ first, second Guard }

func (g bothGuards) AllowTool(t *hub.Tool) (bool, string) {
	if ok, reason := g.first.AllowTool(t); !ok {
		return false, reason
	}
	return g.second.AllowTool(t)
}

func (g bothGuards) AllowModel(m llm.ModelInfo) (bool, string) {
	if ok, reason := g.first.AllowModel(m); !ok {
		return false, reason
	}
	return g.second.AllowModel(m)
}

// ModelRoles keeps the roles both guards leave.
func (g bothGuards) ModelRoles(m llm.ModelInfo) []string {
	second := modelRoles(g.second, m)
	var out []string
	for _, r := range modelRoles(g.first, m) {
		if slices.Contains(second, r) {
			out = append(out, r)
		}
	}
	return out
}

// combineGuards returns the guard of one episode.
func combineGuards(base, task Guard) Guard {
	if task == nil {
		return base
	}
	if _, permissive := base.(PermissiveGuard); permissive {
		return task
	}
	return bothGuards{first: base, second: task}
}
