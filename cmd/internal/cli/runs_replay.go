package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/tidwall/sjson"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/mcp"
	"github.com/toolhub/toolhub/runlog"
)

// replayTarget is the model a replay continues on.
type replayTarget struct {
	BaseURL   string
	ModelID   string // "" keeps the recorded request's
	APIKeyEnv string
	Locality  hub.Locality
}

func newRunsReplayCommand(g *globals) *cobra.Command {
	var target replayTarget
	var locality string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "replay RUN_ID --model URL",
		Short: "Re-send a run's first request to another model and continue the episode there",
		Long: `Replays a recorded run on another OpenAI-compatible endpoint: the first request
the run sent to the orchestrator is sent again, byte for byte (only its
"model" field changes, with --model-id), to the server at --model, and the
episode continues there through the same engine: the same task, mode and
policy, the hub's tools and expert models as configured now, the saved
preferences as they are now. Every later request is the policy's own, built
from the new model's replies. The result is stored as a new run whose
"replay_of" names the original; "toolhub runs export" exports it like any
other.

Only runs recorded with their request bodies can be replayed: runs stored by
an older toolhub (run log version 1) have none and are refused. When the
policy would now render a different first request than the recorded one (the
tools, prices or preferences changed), the new run notes it.

--model is the base URL, as in the config's "orchestrator.baseUrl" (for
vLLM, http://HOST:PORT/v1). No API key is sent unless --api-key-env names the
variable holding one. The endpoint counts as local when its host is a
loopback address, else as remote, so "local-only" preferences refuse a
remote one; --locality overrides that.`,
		Example: `  toolhub runs replay 20260101T120000-1a2b3c4d --model http://127.0.0.1:8001/v1
  toolhub runs replay 20260101T120000-1a2b3c4d --model https://api.example.com/v1 \
      --model-id my-orchestrator-v2 --api-key-env EXAMPLE_API_KEY --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := target.check(locality); err != nil {
				return err
			}
			orig, first, err := loadReplay(args[0])
			if err != nil {
				return err
			}
			if first, err = target.rewrite(first); err != nil {
				return err
			}
			ctx := cmd.Context()
			if err := probeReplayModel(ctx, target, g.stdio.Err); err != nil {
				return err
			}
			return g.replay(ctx, orig, first, target, asJSON)
		},
	}
	cmd.Flags().StringVar(&target.BaseURL, "model", "", "base URL of the OpenAI-compatible endpoint to continue on (required)")
	cmd.Flags().StringVar(&target.ModelID, "model-id", "", `the "model" field to send (default: the recorded request's)`)
	cmd.Flags().StringVar(&target.APIKeyEnv, "api-key-env", "", "environment variable holding the endpoint's API key (default: none is sent)")
	cmd.Flags().StringVar(&locality, "locality", "", "local or remote (default: local for a loopback host, else remote)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the new run as JSON")
	return cmd
}

// check validates the flags and settles the locality.
func (t *replayTarget) check(locality string) error {
	if t.BaseURL == "" {
		return usageError("--model is required: the base URL of the endpoint to replay on")
	}
	u, err := url.Parse(t.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError("--model %q: want an http or https base URL such as http://127.0.0.1:8001/v1", t.BaseURL)
	}
	if !utf8.ValidString(t.ModelID) {
		return usageError("--model-id %q: not UTF-8", t.ModelID)
	}
	switch hub.Locality(locality) {
	case hub.LocalityLocal, hub.LocalityRemote:
		t.Locality = hub.Locality(locality)
	case "":
		t.Locality = hub.LocalityRemote
		if ip := net.ParseIP(u.Hostname()); u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback()) {
			t.Locality = hub.LocalityLocal
		}
	default:
		return usageError("--locality %q: want local or remote", locality)
	}
	return nil
}

// rewrite sets the first request's model field to --model-id, or takes the
// recorded one as the model id when none is given, so that every request of
// the replay names the same model.
func (t *replayTarget) rewrite(first []byte) ([]byte, error) {
	if t.ModelID == "" {
		var body struct {
			Model string `json:"model"`
		}
		_ = json.Unmarshal(first, &body) // FirstRequest bodies are JSON; no model leaves the config's
		t.ModelID = body.Model
		return first, nil
	}
	out, err := sjson.SetBytes(first, "model", t.ModelID)
	if err != nil {
		return nil, fmt.Errorf("set the model of the recorded request: %w", err)
	}
	return out, nil
}

// loadReplay reads the run and its first orchestrator request, closing the
// run log again before the daemon's recorder opens it.
func loadReplay(id string) (orig *conductor.Run, first []byte, err error) {
	err = withRunLog(func(log *runlog.RunLog) error {
		if orig, err = log.Get(id); err != nil {
			return err
		}
		first, err = runlog.FirstRequest(orig)
		return err
	})
	switch {
	case errors.Is(err, runlog.ErrRunNotFound):
		return nil, nil, usageError("no run %q (see toolhub runs ls)", id)
	case errors.Is(err, runlog.ErrNoBodies):
		return nil, nil, usageError("run %s cannot be replayed: it was recorded without its request bodies (run log version 1, an older toolhub); only runs recorded since can be", id)
	case errors.Is(err, runlog.ErrNoOrchestratorRequest):
		return nil, nil, usageError("run %s cannot be replayed: it sent no request to the orchestrator (policy %q)", id, orig.Policy)
	}
	return orig, first, err
}

// probeReplayModel fails when the endpoint cannot be reached at all; an
// endpoint that answers GET /models with an error (some have no model list)
// is reachable. A list without the model id is worth a warning.
func probeReplayModel(ctx context.Context, t replayTarget, warn io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, modelProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(t.BaseURL, "/")+"/models", nil)
	if err != nil {
		return usageError("--model %q: %v", t.BaseURL, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("the model server at %s is unreachable: %w", t.BaseURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil
	}
	if ids, err := parseModelList(body); err == nil && len(ids) > 0 && t.ModelID != "" && !slices.Contains(ids, t.ModelID) {
		fmt.Fprintf(warn, "toolhub: %s does not list model %q (it lists %s); replaying anyway\n", t.BaseURL, t.ModelID, strings.Join(ids, ", "))
	}
	return nil
}

// replay runs the new episode with the orchestrator pointed at t and prints
// it as toolhub run does.
func (g *globals) replay(ctx context.Context, orig *conductor.Run, first []byte, t replayTarget, asJSON bool) error {
	d, err := g.newDaemon(mcp.Options{}, false, func(o *daemon.Options) {
		o.EditOrchestrator = func(ep *llm.ModelEndpoint) {
			ep.BaseURL, ep.APIKeyEnv, ep.Locality, ep.Sampling = t.BaseURL, t.APIKeyEnv, t.Locality, false
			if t.ModelID != "" {
				ep.ModelID = t.ModelID
			}
		}
	})
	if err != nil {
		return err
	}
	defer d.Close()
	d.Start(ctx)
	if err := g.waitForServers(ctx, d.Hub()); err != nil {
		return err
	}
	req := conductor.Request{RunID: conductor.NewRunID(), Task: orig.Task, Mode: orig.Mode, Policy: orig.Policy,
		Expected: orig.Expected, Replay: &conductor.Replay{Of: orig.ID, FirstRequest: first}}
	live := io.Writer(g.stdio.Out)
	if asJSON {
		live = io.Discard
	}
	fmt.Fprintf(live, "replay of %s on %s (%s)\n", orig.ID, t.BaseURL, t.Locality)
	stop := printSteps(live, d.Bus(), req.RunID)
	run, err := d.RunEpisode(ctx, req)
	stop()
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(g.stdio.Out, run)
	}
	return printOutcome(g.stdio.Out, run)
}
