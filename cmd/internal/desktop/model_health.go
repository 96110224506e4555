package desktop

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/ui"
)

// How often the model endpoints are asked how they are: often while one
// is loading its model (the row turns green soon after it is ready),
// rarely otherwise (the endpoints are outside toolhub, so there is no
// event to wait for).
const (
	defaultModelProbeEvery = 30 * time.Second
	modelProbeWhileLoading = 3 * time.Second
)

// modelState is what the last probe of one model endpoint found.
type modelState struct {
	health  ui.Health
	words   string         // "ready", "loading the model", "unreachable"
	problem *ui.PlainError // why it is unreachable; nil otherwise
}

// modelWatch holds the last probe of every model endpoint, by name and
// URL, so that a row never shows the health of an endpoint it no longer
// names.
type modelWatch struct {
	mu     sync.Mutex
	states map[string]modelState
	kick   chan struct{}
}

func newModelWatch() *modelWatch {
	return &modelWatch{states: map[string]modelState{}, kick: make(chan struct{}, 1)}
}

func endpointKey(ep llm.ModelEndpoint) string {
	return ep.Name + "\x00" + ep.BaseURL + "\x00" + ep.ModelID
}

// state is the endpoint's last probe; "checking" before the first.
func (w *modelWatch) state(ep llm.ModelEndpoint) modelState {
	w.mu.Lock()
	defer w.mu.Unlock()
	if s, ok := w.states[endpointKey(ep)]; ok {
		return s
	}
	return modelState{health: ui.HealthUnknown, words: "checking…"}
}

// recheck asks for a probe now (after the models changed).
func (w *modelWatch) recheck() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// probeAll probes every endpoint at once and reports whether any state
// changed, and whether one is still loading.
func (w *modelWatch) probeAll(ctx context.Context, eps []llm.ModelEndpoint) (changed, loading bool) {
	found := make([]modelState, len(eps))
	var wg sync.WaitGroup
	for i, ep := range eps {
		wg.Go(func() { found[i] = probeModel(ctx, ep) })
	}
	wg.Wait()
	if ctx.Err() != nil {
		return false, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	next := make(map[string]modelState, len(eps))
	for i, ep := range eps {
		key := endpointKey(ep)
		next[key] = found[i]
		if old, ok := w.states[key]; !ok || old.health != found[i].health || old.words != found[i].words {
			changed = true
		}
		loading = loading || found[i].health == ui.HealthBusy
	}
	changed = changed || len(next) != len(w.states)
	w.states = next
	return changed, loading
}

// run probes the endpoints models() names until ctx ends, calling changed
// whenever a row's health moved.
func (w *modelWatch) run(ctx context.Context, every time.Duration, models func() []llm.ModelEndpoint, changed func()) {
	for {
		moved, loading := w.probeAll(ctx, models())
		if moved {
			changed()
		}
		wait := every
		if loading {
			wait = min(every, modelProbeWhileLoading)
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-w.kick:
		case <-timer.C:
		}
		timer.Stop()
	}
}

// probeModel asks one endpoint for its model list (with its API key) and
// whether it is still loading.
func probeModel(ctx context.Context, ep llm.ModelEndpoint) modelState {
	if ep.Sampling {
		return modelState{health: ui.HealthOK, words: "served by the calling client's model"}
	}
	key := ""
	if ep.APIKeyEnv != "" {
		key = os.Getenv(ep.APIKeyEnv)
	}
	if err := probeModels(ctx, ep.BaseURL, key); err != nil {
		return modelState{health: ui.HealthFailed, words: "unreachable", problem: modelProblem(ep, key, err)}
	}
	if loading(ctx, ep.BaseURL) {
		return modelState{health: ui.HealthBusy, words: "loading the model"}
	}
	return modelState{health: ui.HealthOK, words: "ready"}
}

// modelProblem says why a model endpoint does not answer, and the fix.
func modelProblem(ep llm.ModelEndpoint, key string, err error) *ui.PlainError {
	details := fmt.Sprintf("%s (%s): %v", ep.Name, ep.BaseURL, err)
	msg := err.Error()
	switch {
	case strings.Contains(msg, "401") || strings.Contains(msg, "403"):
		if ep.APIKeyEnv != "" && key == "" {
			return &ui.PlainError{Summary: "It needs an API key, and " + ep.APIKeyEnv + " is not set.",
				Fix: "Set " + ep.APIKeyEnv + " before starting toolhub.", Details: details}
		}
		return &ui.PlainError{Summary: "It refused toolhub's API key.", Fix: "Check the key in " + orName(ep.APIKeyEnv) + ".", Details: details}
	case strings.HasPrefix(msg, "answered"):
		return &ui.PlainError{Summary: "It " + msg + " when asked for its models.",
			Fix: `Check that "baseUrl" is an OpenAI-compatible address (it usually ends in /v1).`, Details: details}
	}
	return &ui.PlainError{Summary: "Nothing answers at " + ep.BaseURL + ".",
		Fix: "Start the model server, or correct its address with the Setup guide or in the config.", Details: details}
}

func orName(env string) string {
	if env == "" {
		return `its "apiKeyEnv" variable`
	}
	return env
}
