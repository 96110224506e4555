package daemon

import (
	"log/slog"
	"time"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/tools"
)

// callSlack is added to a built-in tool's own time limit for the hub's
// per-call timeout, so the tool reports its timeout before the hub does.
const callSlack = 10 * time.Second

// builtinToolSpecs are the python and web_search providers the config and
// the machine allow. A tool that cannot be offered here (no interpreter, no
// key) is left out with the reason logged, and so is a python or webSearch
// section with a problem (config.ReadBuiltinToolsServe): that tool keeps
// its defaults. Only a config that cannot be read is an error.
func builtinToolSpecs(f *config.File, lookupEnv func(string) (string, bool), log *slog.Logger) ([]hub.ServerSpec, error) {
	path, data, err := configSource(f)
	if err != nil {
		return nil, err
	}
	tools, problems, err := config.ReadBuiltinToolsServe(path, data)
	if err != nil {
		return nil, err
	}
	logLeftOut(log, problems)
	var specs []hub.ServerSpec
	if spec, ok := pythonSpec(tools.Python, log); ok {
		specs = append(specs, spec)
	}
	if spec, ok := webSearchSpec(tools.WebSearch, lookupEnv, log); ok {
		specs = append(specs, spec)
	}
	return specs, nil
}

// pythonSpec puts the python tool in the hub as a local, unprefixed
// in-process server, priced by the second.
func pythonSpec(cfg config.Python, log *slog.Logger) (hub.ServerSpec, bool) {
	if cfg.Disabled {
		return hub.ServerSpec{}, false
	}
	p, err := tools.NewPython(tools.PythonOptions{
		Command:        cfg.Command,
		MaxTimeout:     cfg.MaxTimeout,
		MemoryBytes:    cfg.MemoryMB << 20,
		MaxOutputBytes: int(cfg.MaxOutputBytes),
		RequireSandbox: cfg.Sandbox == config.SandboxRequire,
		Logger:         log,
	})
	if err != nil {
		log.Info("the python tool is not offered", "reason", err)
		return hub.ServerSpec{}, false
	}
	spec := builtinSpec(tools.PythonServerName, p.Server(), hub.LocalityLocal,
		max(cfg.MaxTimeout, tools.DefaultPythonMaxTimeout)+callSlack)
	spec.CostPerSecond = pythonCostPerSecond
	return spec, true
}

// pythonCostPerSecond is the python sandbox's price per second of a run,
// the figure the orchestrator's rewards were computed with (protocol §6),
// so an episode's cost counts code runs as the reference does.
const pythonCostPerSecond = 0.0000083
