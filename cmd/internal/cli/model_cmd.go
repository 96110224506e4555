package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/modelhost"
)

func newModelCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "model",
		Short: "Check or host the orchestrator model server",
		Long: `The orchestrator is an OpenAI-compatible endpoint ("orchestrator" in the
config). toolhub can also start its server itself when "orchestrator.launch"
gives the command (vLLM, llama-server, Ollama).`,
	}
	cmd.AddCommand(newModelStatusCommand(g), newModelStartCommand(g))
	return cmd
}

func newModelStatusCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show whether the orchestrator answers, its hosting and the GPUs",
		Long: `Asks the orchestrator endpoint for its model list (GET {baseUrl}/models) and
whether its server counts tokens for the prompt cuts (POST /tokenize, asked of a
local endpoint only; otherwise an estimate counts), probes the health URL of
"orchestrator.launch" when one is configured, and lists NVIDIA GPUs with their
memory (through nvidia-smi, when it is installed).

Exit status 1 when the orchestrator does not answer: episodes then fall back to
the no-model policy.`,
		Example: "  toolhub model status\n  toolhub model status --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			models, err := g.loadModels()
			if err != nil {
				return err
			}
			st := probeModelStatus(cmd.Context(), models)
			if asJSON {
				err = writeJSON(g.stdio.Out, st)
			} else {
				err = printModelStatus(g.stdio.Out, st)
			}
			if err == nil && !st.Orchestrator.Reachable {
				return errToolFailure
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newModelStartCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "start",
		Short: "Run the orchestrator's model server in the foreground",
		Long: `Starts the command of "orchestrator.launch", waits for its health URL (up to
"startTimeout", 20 minutes by default, since loading weights is slow), restarts
it with backoff when it crashes, and stops it on Ctrl-C. State changes are
printed as they happen; when it gives up, the end of the server's output is
shown and the exit status is 1. If a server already answers on the health URL,
nothing is started.`,
		Example: "  toolhub model start",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			models, err := g.loadModels()
			if err != nil {
				return err
			}
			host, err := daemon.NewModelHost(models, config.Lookup{Env: os.LookupEnv, Secrets: g.configSecrets()}, g.logger())
			if err != nil {
				return asUsage(err)
			}
			if host == nil {
				return usageError(`the config has no "orchestrator.launch": nothing to start (toolhub config path shows the file)`)
			}
			return g.superviseModel(cmd.Context(), host)
		},
	}
}

// superviseModel runs host until ctx ends or it gives up, printing every
// state change.
func (g *globals) superviseModel(ctx context.Context, host *modelhost.Host) error {
	host.Start(ctx)
	defer host.Stop()
	var last modelhost.State
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		st := host.Status()
		if st.State != last {
			last = st.State
			g.printHostState(st)
		}
		if st.State == modelhost.Failed {
			fmt.Fprintf(g.stdio.Err, "server output (last lines):\n%s\n", st.StderrTail)
			return fmt.Errorf("model server: %s: %w", st.LastError, errToolFailure)
		}
		select {
		case <-ctx.Done():
			host.Stop()
			g.printHostState(host.Status())
			if errors.Is(ctx.Err(), context.Canceled) {
				return nil
			}
			return ctx.Err()
		case <-tick.C:
		}
	}
}

func (g *globals) printHostState(st modelhost.Status) {
	line := fmt.Sprintf("%s  %s", st.Since.Format(time.TimeOnly), st.State)
	if st.PID != 0 {
		line += fmt.Sprintf(" (pid %d)", st.PID)
	}
	switch {
	case st.State == modelhost.External:
		line += ": a server already answers on " + st.HealthURL + "; nothing started"
	case st.LastError != "" && st.State != modelhost.Healthy:
		line += ": " + oneLine(st.LastError, 120)
	}
	fmt.Fprintln(g.stdio.Out, line)
}

// loadModels reads the configured model endpoints; a bad models section is
// a usage error.
func (g *globals) loadModels() (*config.Models, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		return nil, err
	}
	models, err := daemon.LoadModels(cfg)
	if err != nil {
		return nil, asUsage(err)
	}
	return models, nil
}
