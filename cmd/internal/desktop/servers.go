package desktop

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/ui"
)

// Servers implements ui.ServersBackend: every configured server (disabled
// ones included) with its tools and measured figures, toolhub's own tools,
// then every model endpoint.
func (b *Backend) Servers(context.Context) ([]ui.ServerInfo, error) {
	d := b.opts.Daemon
	snap := d.Hub().Snapshot()
	figures := serverFigures(snap.Tools())
	var out []ui.ServerInfo
	seen := map[string]bool{}
	for _, s := range d.Hub().Servers() {
		seen[s.Name] = true
		info := serverInfo(s, figures[s.Name])
		info.ToolList = toolList(snap.ServerTools(s.Name))
		if d.Builtin(s.Name) || strings.HasPrefix(s.Name, builtinPrefix) {
			info.Kind, info.Title = ui.KindBuiltin, builtinTitle(s.Name)
		}
		out = append(out, info)
	}
	for name, s := range b.config().MCPServers {
		if s.Disabled && !seen[name] {
			out = append(out, ui.ServerInfo{Name: name, Kind: ui.KindServer, Health: ui.HealthOff, State: "disabled",
				Locality: s.Locality, Enabled: false})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return append(out, b.modelInfos()...), nil
}

// builtinPrefix starts the names the daemon gives toolhub's own providers.
const builtinPrefix = "toolhub-"

// builtinTitle is what a built-in provider is called in the window.
func builtinTitle(name string) string {
	switch short := strings.TrimPrefix(name, builtinPrefix); short {
	case "documents":
		return "Documents search"
	case "python":
		return "Python"
	case "web-search":
		return "Web search"
	case "conductor":
		return "Orchestrator"
	case "":
		return name
	default:
		return strings.ToUpper(short[:1]) + strings.ReplaceAll(short[1:], "-", " ")
	}
}

// toolList names a server's tools (as the server calls them) with their
// descriptions, sorted.
func toolList(tools []*hub.Tool) []ui.ToolInfo {
	out := make([]ui.ToolInfo, 0, len(tools))
	for _, t := range tools {
		out = append(out, ui.ToolInfo{Name: t.RawTool.Name, Description: t.Description})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// toolFigures sum a server's tools: mean measured latency, cost per call
// and per second of a call.
type toolFigures struct {
	latency   time.Duration
	cost      float64
	perSecond float64
}

func serverFigures(tools []*hub.Tool) map[string]toolFigures {
	sums := map[string]time.Duration{}
	counted := map[string]int{}
	out := map[string]toolFigures{}
	for _, t := range tools {
		f := out[t.Server]
		f.cost, f.perSecond = t.CostPerCall, t.CostPerSecond
		out[t.Server] = f
		if v := t.Stats.View(); v.Calls > 0 {
			sums[t.Server] += v.Latency
			counted[t.Server]++
		}
	}
	for name, n := range counted {
		f := out[name]
		f.latency = sums[name] / time.Duration(n)
		out[name] = f
	}
	return out
}

func serverInfo(s hub.ServerStatus, f toolFigures) ui.ServerInfo {
	info := ui.ServerInfo{Name: s.Name, Kind: ui.KindServer, State: string(s.State), Locality: string(s.Locality),
		Tools: s.Tools, Latency: f.latency, Enabled: true, LastError: s.LastError, StderrTail: s.StderrTail,
		Problem: serverProblem(s)}
	switch s.State {
	case hub.StateReady:
		info.Health = ui.HealthOK
	case hub.StateStarting, hub.StateRestarting:
		info.Health = ui.HealthBusy
	case hub.StateFailed, hub.StateInvalid:
		info.Health = ui.HealthFailed
	case hub.StateStopped:
		info.Health = ui.HealthOff
	case hub.StateDisabled:
		info.Health, info.Enabled = ui.HealthOff, false
	}
	if s.Restarts > 0 {
		info.State += " (" + ui.Plural(s.Restarts, "restart", "restarts") + ")"
	}
	info.Cost = costText(f)
	return info
}

// modelEndpoints are the orchestrator and the expert endpoints in use.
func (b *Backend) modelEndpoints() []llm.ModelEndpoint {
	m := b.currentModels()
	if m == nil {
		return nil
	}
	return append([]llm.ModelEndpoint{m.Orchestrator}, m.Endpoints...)
}

// modelInfos lists the orchestrator and the expert endpoints, each with
// what its last probe found.
func (b *Backend) modelInfos() []ui.ServerInfo {
	eps := b.modelEndpoints()
	out := make([]ui.ServerInfo, 0, len(eps))
	for i, ep := range eps {
		role := "expert"
		if i == 0 {
			role = "orchestrator"
		}
		st := b.watch.state(ep)
		out = append(out, ui.ServerInfo{Name: ep.Name, Kind: ui.KindModel, Health: st.health,
			State: role + ", " + st.words, Problem: st.problem, Locality: string(ep.Locality), Enabled: true,
			Cost: fmt.Sprintf("$%g/M in, $%g/M out", ep.PriceIn, ep.PriceOut)})
	}
	if m := b.currentModels(); m != nil {
		for _, lo := range m.LeftOut {
			out = append(out, ui.ServerInfo{Name: lo.Name, Kind: ui.KindModel, Health: ui.HealthFailed,
				State: "expert, left out of the config", Problem: leftOutProblem(lo)})
		}
	}
	return out
}

// SetServerEnabled implements ui.ServersBackend: the running hub stops or
// starts the server at once; the config file is left as it is, so the
// server's configured "enabled" applies again at the next start.
func (b *Backend) SetServerEnabled(ctx context.Context, name string, enabled bool) error {
	return plainError(b.opts.Daemon.Hub().SetEnabled(ctx, name, enabled))
}

// RestartServer implements ui.ServersBackend.
func (b *Backend) RestartServer(ctx context.Context, name string) error {
	return plainError(b.opts.Daemon.Hub().Restart(ctx, name))
}

// costText is a server's price as the Servers tab shows it.
func costText(f toolFigures) string {
	return hub.PriceText(f.cost, f.perSecond, "/call", "/s")
}
