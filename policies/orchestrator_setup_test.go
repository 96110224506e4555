package policies_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
)

// recorder keeps the arguments an in-process tool received.
type recorder struct {
	mu   sync.Mutex
	args []map[string]any
}

func (r *recorder) add(a map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.args = append(r.args, a)
}

func (r *recorder) calls() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.args...)
}

// docsServer is a fake search_documents server (unprefixed, local, 0.001 USD
// per call) returning hits as one text part each, best first.
func docsServer(rec *recorder, hits ...string) hub.ServerSpec {
	return docsServerWithSchema(rec, `{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`, hits...)
}

// docsServerWithSchema is docsServer whose tool takes schema.
func docsServerWithSchema(rec *recorder, schema string, hits ...string) hub.ServerSpec {
	s := mcpserver.NewMCPServer("search_documents", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewToolWithRawSchema("search_documents", "Search local documents.", json.RawMessage(schema)),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			rec.add(req.GetArguments())
			res := &mcpgo.CallToolResult{}
			for _, h := range hits {
				res.Content = append(res.Content, mcpgo.NewTextContent(h))
			}
			return res, nil
		})
	return hub.ServerSpec{Name: "search_documents", Transport: hub.TransportInProcess, InProcess: s,
		Unprefixed: true, Locality: hub.LocalityLocal, CostPerCall: 0.001}
}

// kvServer offers kv__get, answering "value-of-KEY".
func kvServer(rec *recorder) hub.ServerSpec {
	s := mcpserver.NewMCPServer("kv", "1.0.0", mcpserver.WithToolCapabilities(false))
	schema := json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]}`)
	s.AddTool(mcpgo.NewToolWithRawSchema("get", "Read a value.", schema),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			rec.add(req.GetArguments())
			return mcpgo.NewToolResultText("value-of-" + req.GetString("key", "")), nil
		})
	return hub.ServerSpec{Name: "kv", Transport: hub.TransportInProcess, InProcess: s, Locality: hub.LocalityLocal}
}

func startHub(t testing.TB, specs ...hub.ServerSpec) *hub.Hub {
	t.Helper()
	h, err := hub.New(specs, hub.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	h.Start(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}
	return h
}

// Prices of the test endpoints, USD per 1M tokens.
const (
	orchIn, orchOut     = 0.2, 0.2
	expertIn, expertOut = 1.25, 10
)

func orchestratorEndpoint(baseURL string) llm.ModelEndpoint {
	return llm.ModelEndpoint{Name: "orch", BaseURL: baseURL, ModelID: "nvidia/Nemotron-Orchestrator-8B",
		Locality: hub.LocalityLocal, PriceIn: orchIn, PriceOut: orchOut}
}

func expertEndpoint(baseURL string, roles ...string) llm.ModelEndpoint {
	return llm.ModelEndpoint{Name: "big", BaseURL: baseURL, ModelID: "gpt-5", Locality: hub.LocalityRemote,
		PriceIn: expertIn, PriceOut: expertOut, Roles: roles, AnswerStyle: "boxed",
		Capability: "strong at everything."}
}

// scripted starts a scripted model server closed at cleanup.
func scripted(t testing.TB, replies ...scriptedmodel.Reply) *scriptedmodel.Server {
	t.Helper()
	s := scriptedmodel.New(replies...)
	t.Cleanup(s.Close)
	return s
}

func newEpisodes(t testing.TB, h *hub.Hub, orchestrator string, endpoints ...llm.ModelEndpoint) (*conductor.Episodes, *events.Bus) {
	t.Helper()
	models, err := llm.NewModels(endpoints, llm.ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bus := events.New(events.Options{})
	// Waits between failed calls pass at once: tests never wait on a timer.
	noWait := func(ctx context.Context, _ time.Duration) bool { return ctx.Err() == nil }
	eps, err := conductor.NewEpisodes(conductor.EpisodesConfig{Tools: h, Models: models, Orchestrator: orchestrator, Bus: bus, Sleep: noWait})
	if err != nil {
		t.Fatal(err)
	}
	return eps, bus
}

func cost(in, out int, priceIn, priceOut float64) float64 {
	return float64(in)*priceIn/1e6 + float64(out)*priceOut/1e6
}

func observations(run *conductor.Run) string {
	var b strings.Builder
	for _, s := range run.Steps {
		if s.Kind == conductor.StepObservation {
			b.WriteString(s.Text + "\n")
		}
	}
	return b.String()
}

func approx(a, b float64) bool {
	d := a - b
	return d < 1e-12 && d > -1e-12
}
