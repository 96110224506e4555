package desktop

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/ui"
)

// healthTimeout bounds one probe of the orchestrator.
const healthTimeout = 3 * time.Second

// OrchestratorHealth implements ui.HeaderBackend: it asks the orchestrator's
// OpenAI-compatible endpoint for its model list.
func (b *Backend) OrchestratorHealth(ctx context.Context) ui.OrchestratorHealth {
	if b.currentModels() == nil {
		return ui.OrchestratorHealth{Detail: "no orchestrator configured; the fallback policy decides"}
	}
	o := b.currentModels().Orchestrator
	h := ui.OrchestratorHealth{Model: o.ModelID}
	if o.Sampling {
		h.Reachable, h.Detail = true, "served by the calling client's model"
		return h
	}
	key := ""
	if o.APIKeyEnv != "" {
		key = os.Getenv(o.APIKeyEnv)
	}
	if err := probeModels(ctx, o.BaseURL, key); err != nil {
		h.Detail = err.Error() + "; the fallback policy decides"
		return h
	}
	h.Reachable = true
	if loading(ctx, o.BaseURL) {
		h.Loading = true
		return h
	}
	h.Detail = fmt.Sprintf("%s, %s", o.Locality, strings.TrimSuffix(o.BaseURL, "/v1"))
	if o.Locality == hub.LocalityLocal {
		h.GPU, h.Memory = localGPU(ctx)
	}
	return h
}

// probeModels GETs base/models (with the API key, when there is one) and
// expects a 200.
func probeModels(ctx context.Context, base, key string) error {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+"/models", nil)
	if err != nil {
		return fmt.Errorf("orchestrator URL %q: %w", base, err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("no answer from %s (%s)", base, lastCause(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("answered %s", resp.Status)
	}
	return nil
}

// loading reports whether the server at base (an OpenAI-compatible /v1
// URL) says on its /health that it is still loading the model: llama.cpp
// and vLLM answer 503 there, while /v1/models may already answer. A server
// without /health (Ollama) is not loading.
func loading(ctx context.Context, base string) bool {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	root := strings.TrimSuffix(strings.TrimSuffix(base, "/"), "/v1")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, root+"/health", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusServiceUnavailable
}

// lastCause is the innermost part of an error message, e.g. "connection refused".
func lastCause(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}
