package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/modelhost"
	"github.com/toolhub/toolhub/policies"
)

// modelProbeTimeout bounds each request model status sends.
const modelProbeTimeout = 5 * time.Second

// modelStatus is what `toolhub model status` reports.
type modelStatus struct {
	Orchestrator orchestratorStatus  `json:"orchestrator"`
	Hosting      *hostingStatus      `json:"hosting,omitempty"`
	GPU          modelhost.GPUReport `json:"gpu"`
}

type orchestratorStatus struct {
	BaseURL      string   `json:"baseUrl"`
	Model        string   `json:"model"`
	Locality     string   `json:"locality"`
	Reachable    bool     `json:"reachable"`
	ServedModels []string `json:"servedModels,omitempty"`
	Error        string   `json:"error,omitempty"`
	// TokenCounts says how prompt cuts count tokens: by the server's
	// /tokenize in "vllm" or "llama-server" request shape, or "estimate".
	TokenCounts string `json:"tokenCounts"`
	// TokenCountsWhy says why the estimate counts, when it does.
	TokenCountsWhy string `json:"tokenCountsWhy,omitempty"`
}

// hostingStatus describes "orchestrator.launch" and whether its health URL
// answers now (a separate process may be running the server).
type hostingStatus struct {
	Command      []string `json:"command"`
	Health       string   `json:"health"`
	StartTimeout string   `json:"startTimeout"`
	Healthy      bool     `json:"healthy"`
	Error        string   `json:"error,omitempty"`
}

// probeModelStatus checks the orchestrator endpoint, the hosting health URL
// and the GPUs.
func probeModelStatus(ctx context.Context, m *config.Models) modelStatus {
	o := m.Orchestrator
	st := modelStatus{Orchestrator: orchestratorStatus{BaseURL: o.BaseURL, Model: o.ModelID, Locality: string(o.Locality)}}
	served, err := listServedModels(ctx, o.BaseURL)
	if err != nil {
		st.Orchestrator.Error = err.Error()
	} else {
		st.Orchestrator.Reachable, st.Orchestrator.ServedModels = true, served
	}
	st.Orchestrator.TokenCounts, st.Orchestrator.TokenCountsWhy = tokenCounting(o)
	if l := m.Launch; l != nil {
		st.Hosting = &hostingStatus{Command: l.Command, Health: l.Health, StartTimeout: l.StartTimeout.String()}
		if err := modelhost.CheckHealth(ctx, l.Health, modelProbeTimeout); err != nil {
			st.Hosting.Error = err.Error()
		} else {
			st.Hosting.Healthy = true
		}
	}
	st.GPU = modelhost.DetectGPUs(ctx)
	if st.GPU.GPUs == nil {
		st.GPU.GPUs = []modelhost.GPU{} // [] in JSON, not null
	}
	return st
}

// tokenCounting asks the orchestrator's server to count a text as the
// prompt cuts do (llm.Tokenizer), and says whether it can.
func tokenCounting(o llm.ModelEndpoint) (how, why string) {
	models, err := llm.NewModels([]llm.ModelEndpoint{o}, llm.ModelOptions{})
	if err != nil {
		return "estimate", err.Error()
	}
	tok := llm.NewTokenizer(models, o.Name, llm.TokenizerOptions{
		Estimate: policies.EstimateCounter{}.Count, Timeout: modelProbeTimeout})
	server, why := tok.Counting()
	if server == "" {
		return "estimate", why
	}
	return server, ""
}

// listServedModels GETs {base}/models and returns the ids listed.
func listServedModels(ctx context.Context, base string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, modelProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+"/models", nil)
	if err != nil {
		return nil, fmt.Errorf("orchestrator URL %q: %w", base, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("unreachable: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("read the model list: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /models answered %s", resp.Status)
	}
	return parseModelList(body)
}

// parseModelList reads an OpenAI model list: {"data": [{"id": ...}]}.
func parseModelList(body []byte) ([]string, error) {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("the model list is not OpenAI JSON: %w", err)
	}
	ids := make([]string, 0, len(list.Data))
	for _, d := range list.Data {
		if d.ID != "" {
			ids = append(ids, d.ID)
		}
	}
	return ids, nil
}

// printModelStatus writes the status as aligned lines.
func printModelStatus(w io.Writer, st modelStatus) error {
	o := st.Orchestrator
	t := newTable(w, "WHAT", "STATUS")
	t.row("orchestrator", fmt.Sprintf("%s at %s (%s)", o.Model, o.BaseURL, o.Locality))
	if o.Reachable {
		t.row("reachable", "yes; serves models: "+orNone(strings.Join(o.ServedModels, ", ")))
	} else {
		t.row("reachable", "no: "+errorLine(o.Error, 100)+"; the fallback policy decides")
	}
	if o.TokenCounts == "estimate" {
		t.row("token counts", "estimated at 2.7 bytes a token: "+o.TokenCountsWhy)
	} else {
		shape := map[string]string{"vllm": "vLLM's", "llama-server": "llama-server's"}[o.TokenCounts]
		t.row("token counts", "by the server's /tokenize ("+shape+" request shape)")
	}
	if h := st.Hosting; h == nil {
		t.row("hosting", `not configured (add "orchestrator.launch" to let toolhub start the server)`)
	} else {
		t.row("hosting", strings.Join(h.Command, " "))
		health := "healthy"
		if !h.Healthy {
			health = "not answering: " + errorLine(h.Error, 90)
		}
		t.row("health", fmt.Sprintf("%s %s (start timeout %s)", h.Health, health, h.StartTimeout))
	}
	if len(st.GPU.GPUs) == 0 {
		t.row("GPU", st.GPU.Note)
	}
	for _, g := range st.GPU.GPUs {
		t.row("GPU", fmt.Sprintf("%s: %d of %d MiB used", g.Name, g.MemoryUsedMiB, g.MemoryTotalMiB))
	}
	return t.flush()
}
