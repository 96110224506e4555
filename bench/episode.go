package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// EpisodeOptions size the episode benchmark.
type EpisodeOptions struct {
	Episodes int            // measured episodes (default 40)
	Turns    int            // turns per episode, at most 50 (default 50)
	Mode     conductor.Mode // research (default) or tools
	Logger   *slog.Logger
}

// EpisodeReport is the hub's own cost per turn: the model answers in zero
// time from memory and the tools run in process, so what is left is the
// prompt rendering, request encoding, HTTP client, reply parsing, guard,
// accounting and MCP round trip.
type EpisodeReport struct {
	Mode          conductor.Mode `json:"mode"`
	Episodes      int            `json:"episodes"`
	Turns         int            `json:"turns"`
	ModelCalls    int            `json:"modelCalls"`
	ToolCalls     int            `json:"toolCalls"`
	PerTurn       time.Duration  `json:"perTurn"`
	AllocsPerTurn float64        `json:"allocsPerTurn"`
	BytesPerTurn  float64        `json:"bytesPerTurn"`
	Episode       Percentiles    `json:"episode"`
}

// Canned replies: research turns search (orchestrator), then the expert
// writes a query; tool-mode turns call kv__get.
var (
	orchSearchReply = completion(`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"model\": \"search-1\"}"}}]}`)
	expertReply     = completion(`{"role":"assistant","content":"<query>benchmark query text</query>"}`)
	orchToolReply   = completion(`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"kv__get","arguments":"{\"query\": \"k\"}"}}]}`)
)

func completion(message string) []byte {
	return []byte(`{"id":"chatcmpl-1","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":` +
		message + `}],"usage":{"prompt_tokens":1000,"completion_tokens":20,"total_tokens":1020}}`)
}

// zeroLatencyModels is an http.RoundTripper that answers chat completions
// from memory without touching the network: orch.invalid gets reply,
// expert.invalid the query writer's reply.
type zeroLatencyModels struct{ orchReply []byte }

func (z zeroLatencyModels) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	body := expertReply
	if req.URL.Host == "orch.invalid" {
		body = z.orchReply
	}
	return &http.Response{StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": []string{"application/json"}}, Request: req,
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body))}, nil
}

// RunEpisode runs whole episodes that never answer, so each lasts Turns
// turns, and reports the time and allocations per turn.
func RunEpisode(ctx context.Context, opts EpisodeOptions) (*EpisodeReport, error) {
	opts = episodeDefaults(opts)
	h, err := hub.New([]hub.ServerSpec{searchServer(), kvServer()}, hub.Options{Logger: opts.Logger})
	if err != nil {
		return nil, fmt.Errorf("episode bench: %w", err)
	}
	defer h.Close()
	h.Start(ctx)
	if err := h.WaitSettled(ctx); err != nil {
		return nil, fmt.Errorf("episode bench: %w", err)
	}
	eps, err := benchEpisodes(h, opts.Mode)
	if err != nil {
		return nil, err
	}
	task := conductor.Task{Text: "How fast is the hub?", Mode: opts.Mode, MaxTurns: opts.Turns}
	if _, err := eps.Run(ctx, task, &policies.Orchestrator{}); err != nil { // warm-up
		return nil, fmt.Errorf("episode bench: %w", err)
	}
	return measureEpisodes(ctx, eps, task, opts)
}

func measureEpisodes(ctx context.Context, eps *conductor.Episodes, task conductor.Task, opts EpisodeOptions) (*EpisodeReport, error) {
	rep := &EpisodeReport{Mode: opts.Mode, Episodes: opts.Episodes}
	samples := make([]time.Duration, 0, opts.Episodes)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	for i := 0; i < opts.Episodes; i++ {
		t0 := time.Now()
		run, err := eps.Run(ctx, task, &policies.Orchestrator{})
		if err != nil {
			return nil, fmt.Errorf("episode bench: %w", err)
		}
		samples = append(samples, time.Since(t0))
		rep.Turns += run.Totals.Turns
		rep.ModelCalls += run.Totals.ModelCalls
		rep.ToolCalls += run.Totals.ToolCalls
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	turns := max(rep.Turns, 1)
	rep.PerTurn = elapsed / time.Duration(turns)
	rep.AllocsPerTurn = float64(after.Mallocs-before.Mallocs) / float64(turns)
	rep.BytesPerTurn = float64(after.TotalAlloc-before.TotalAlloc) / float64(turns)
	rep.Episode = summarize(samples)
	return rep, nil
}

func episodeDefaults(o EpisodeOptions) EpisodeOptions {
	if o.Episodes <= 0 {
		o.Episodes = 40
	}
	if o.Turns <= 0 || o.Turns > conductor.MaxTurns {
		o.Turns = conductor.MaxTurns
	}
	if o.Mode == "" {
		o.Mode = conductor.ModeResearch
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

func benchEpisodes(h *hub.Hub, mode conductor.Mode) (*conductor.Episodes, error) {
	orchReply := orchSearchReply
	if mode == conductor.ModeTools {
		orchReply = orchToolReply
	}
	client := &http.Client{Transport: zeroLatencyModels{orchReply: orchReply}}
	models, err := llm.NewModels([]llm.ModelEndpoint{
		{Name: "orch", BaseURL: "http://orch.invalid/v1", ModelID: "orchestrator-8b", Locality: hub.LocalityLocal, PriceIn: 0.2, PriceOut: 0.2},
		{Name: "expert", BaseURL: "http://expert.invalid/v1", ModelID: "qwen3-32b", Locality: hub.LocalityLocal,
			PriceIn: 0.8, PriceOut: 0.8, Roles: []string{policies.RoleSearch, policies.RoleAnswer}, AnswerStyle: policies.StyleBoxed},
	}, llm.ModelOptions{HTTPClient: client})
	if err != nil {
		return nil, fmt.Errorf("episode bench: %w", err)
	}
	return conductor.NewEpisodes(conductor.EpisodesConfig{Tools: h, Models: models, Orchestrator: "orch"})
}

// searchServer is an in-process search_documents returning five passages.
func searchServer() hub.ServerSpec {
	s := mcpserver.NewMCPServer("search_documents", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewTool("search_documents", mcpgo.WithString("query", mcpgo.Required())),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			res := &mcpgo.CallToolResult{}
			for i := 0; i < 5; i++ {
				res.Content = append(res.Content, mcpgo.NewTextContent(fmt.Sprintf("Passage %d: the hub measures its own overhead per turn.", i)))
			}
			return res, nil
		})
	return hub.ServerSpec{Name: "search_documents", Transport: hub.TransportInProcess, InProcess: s, Unprefixed: true, Locality: hub.LocalityLocal}
}

// kvServer offers kv__get for tool-mode turns.
func kvServer() hub.ServerSpec {
	s := mcpserver.NewMCPServer("kv", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewTool("get", mcpgo.WithString("query", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("value of " + req.GetString("query", "")), nil
		})
	return hub.ServerSpec{Name: "kv", Transport: hub.TransportInProcess, InProcess: s, Locality: hub.LocalityLocal}
}
