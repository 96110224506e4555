package hub

// Guard decides what an episode may offer and call. The hub consults it
// before offering a tool or model to a policy and again before every call,
// so a policy can never reach what the guard refuses.
type Guard interface {
	// AllowTool reports whether the catalog tool may be offered and called,
	// and why not when it may not.
	AllowTool(tool *Tool) (ok bool, reason string)
	// AllowModel reports the same for a model endpoint.
	AllowModel(model ModelInfo) (ok bool, reason string)
}

// PermissiveGuard allows everything.
type PermissiveGuard struct{}

// AllowTool allows every tool.
func (PermissiveGuard) AllowTool(*Tool) (bool, string) { return true, "" }

// AllowModel allows every model.
func (PermissiveGuard) AllowModel(ModelInfo) (bool, string) { return true, "" }

// GuardFuncs adapts two functions to a Guard; a nil function allows all.
type GuardFuncs struct {
	Tool  func(*Tool) (bool, string)
	Model func(ModelInfo) (bool, string)
}

// AllowTool calls Tool.
func (g GuardFuncs) AllowTool(t *Tool) (bool, string) {
	if g.Tool == nil {
		return true, ""
	}
	return g.Tool(t)
}

// AllowModel calls Model.
func (g GuardFuncs) AllowModel(m ModelInfo) (bool, string) {
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
