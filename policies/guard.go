package policies

import (
	"slices"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// GuardScope is what a preferences guard weighs each tool and model
// against: everything configured, so that prefer-local knows which jobs a
// local tool or model already does.
type GuardScope struct {
	Tools        []*hub.Tool     // the catalog, e.g. hub.Snapshot().Tools()
	Models       []llm.ModelInfo // every configured endpoint
	Orchestrator string          // the orchestrator's endpoint name
}

// Guard enforces preferences in the hub: it decides what an episode is
// offered and is asked again before every call. It implements hub.RoleGuard.
//
// The rules, in order:
//   - a tool or model whose weight is off is refused;
//   - local-only refuses every tool and model that is not local (an unset
//     locality counts as remote), the orchestrator included;
//   - prefer-local keeps a remote model only for the roles (search, reason,
//     answer, expert) that no allowed local model has, and a remote model
//     without roles only when no allowed local model exists; the
//     orchestrator has no local alternative and is kept;
//   - prefer-local refuses a remote tool when an allowed local tool does the
//     same job. Tools have no roles, so the job is the tool's own name as its
//     server lists it (a local "read_file" hides a remote "read_file"), and
//     search_documents and web_search share the job "search": local
//     documents search hides web search.
type Guard struct {
	prefs        Preferences
	orchestrator string
	localRoles   map[string]bool // roles an allowed local model has
	localModels  bool            // some allowed local expert model exists
	localJobs    map[string]bool // jobs an allowed local tool does
}

var _ conductor.RoleGuard = (*Guard)(nil)

// NewGuard builds the guard of p over scope.
func NewGuard(p Preferences, scope GuardScope) *Guard {
	g := &Guard{prefs: p.clone(), orchestrator: scope.Orchestrator,
		localRoles: map[string]bool{}, localJobs: map[string]bool{}}
	for _, m := range scope.Models {
		if m.Name == scope.Orchestrator || !isLocal(m.Locality) || p.ModelWeight(m.Name) == WeightOff {
			continue
		}
		g.localModels = true
		for _, r := range m.Roles {
			g.localRoles[r] = true
		}
	}
	for _, t := range scope.Tools {
		if isLocal(t.Locality) && p.ToolWeight(t) != WeightOff {
			g.localJobs[toolJob(t)] = true
		}
	}
	return g
}

// Preferences returns the preferences the guard enforces.
func (g *Guard) Preferences() Preferences { return g.prefs.clone() }

// Reasons a guard gives; the trace shows them.
const (
	reasonOff             = "off in the preferences"
	reasonLocalOnly       = "remote, and privacy is local-only"
	reasonLocalModelRoles = "remote, and local models have all its roles (privacy prefer-local)"
	reasonLocalTool       = "remote, and a local tool does the same job (privacy prefer-local)"
	// reasonRoleWithheld is why an alias of an offered model is not
	// offered: ModelRoles kept the remote model for its other roles only.
	reasonRoleWithheld = "remote, and a local model has this role (privacy prefer-local)"
)

// AllowTool applies the weight and privacy rules to a catalog tool.
func (g *Guard) AllowTool(t *hub.Tool) (bool, string) {
	switch {
	case g.prefs.ToolWeight(t) == WeightOff:
		return false, reasonOff
	case isLocal(t.Locality):
		return true, ""
	case g.prefs.Privacy == PrivacyLocalOnly:
		return false, reasonLocalOnly
	case g.prefs.Privacy == PrivacyPreferLocal && g.localJobs[toolJob(t)]:
		return false, reasonLocalTool
	}
	return true, ""
}

// AllowModel applies the weight and privacy rules to a model endpoint.
func (g *Guard) AllowModel(m llm.ModelInfo) (bool, string) {
	switch {
	case g.prefs.ModelWeight(m.Name) == WeightOff:
		return false, reasonOff
	case isLocal(m.Locality):
		return true, ""
	case g.prefs.Privacy == PrivacyLocalOnly:
		return false, reasonLocalOnly
	case g.prefs.Privacy == PrivacyPreferLocal && m.Name != g.orchestrator && !g.remoteNeeded(m):
		return false, reasonLocalModelRoles
	}
	return true, ""
}

// ModelRoles narrows a remote model's roles under prefer-local to those no
// allowed local model has; every other model keeps its roles.
func (g *Guard) ModelRoles(m llm.ModelInfo) []string {
	if isLocal(m.Locality) || g.prefs.Privacy != PrivacyPreferLocal || m.Name == g.orchestrator {
		return m.Roles
	}
	var roles []string
	for _, r := range m.Roles {
		if !g.localRoles[r] {
			roles = append(roles, r)
		}
	}
	return roles
}

// remoteNeeded reports whether prefer-local keeps a remote model.
func (g *Guard) remoteNeeded(m llm.ModelInfo) bool {
	if len(m.Roles) == 0 {
		return !g.localModels
	}
	return len(g.ModelRoles(m)) > 0
}

func isLocal(l hub.Locality) bool { return l == hub.LocalityLocal }

// searchJobs are the tools that do the job "search".
var searchJobs = []string{ToolSearchDocuments, ToolWebSearch}

// toolJob is what a tool does, for prefer-local: its name as its server
// lists it, with the search tools sharing one job.
func toolJob(t *hub.Tool) string {
	if slices.Contains(searchJobs, t.RawTool.Name) {
		return "search"
	}
	return t.RawTool.Name
}
