package policies_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// passageText is longer than any snippet and than the 1,000 characters a
// Qwen expert reads of a document; its last sentence holds the fact.
var passageText = "# Travel policy\n\nBusiness travel is booked through the travel desk. " +
	strings.Repeat("Trains are preferred for trips under four hours. ", 20) +
	"The per diem for business travel is 42 euros a day, paid monthly."

// builtinDocsServer answers like the built-in search_documents: a listing
// with bold snippets for people, the passages in full in structuredContent.
func builtinDocsServer(rec *recorder) hub.ServerSpec {
	s := mcpserver.NewMCPServer("documents", "1.0.0", mcpserver.WithToolCapabilities(false))
	schema := json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"},"k":{"type":"number"},"ungrouped":{"type":"boolean"}},"required":["query"]}`)
	s.AddTool(mcpgo.NewToolWithRawSchema("search_documents", "Search local documents.", schema),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			rec.add(req.GetArguments())
			res := mcpgo.NewToolResultText("1 passages for \"per diem\" (bm25):\n\n1. /notes/travel.md › Travel policy [bytes 0-188, score 0.353]\n" +
				"…The **per diem** for business…\n\nno embedding endpoint configured: BM25 only\n")
			res.StructuredContent = map[string]any{"query": "per diem", "mode": "bm25",
				"passages": []map[string]any{{"path": "/notes/travel.md", "title": "Travel policy", "text": passageText, "score": 0.353}}}
			return res, nil
		})
	return hub.ServerSpec{Name: "documents", Transport: hub.TransportInProcess, InProcess: s, Unprefixed: true, Locality: hub.LocalityLocal}
}

// builtinPythonServer answers like the built-in python tool: a status
// banner in the text, stdout in structuredContent.
func builtinPythonServer() hub.ServerSpec {
	schema := json.RawMessage(`{"type":"object","properties":{"code":{"type":"string"}},"required":["code"]}`)
	return pythonServer(schema, func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res := mcpgo.NewToolResultText("exit status 0; sandbox: bubblewrap\n--- stdout ---\n42\n")
		res.StructuredContent = map[string]any{"exitCode": 0, "stdout": "42\n", "stderr": "", "sandbox": "bubblewrap"}
		return res, nil
	})
}

// pythonServer is an in-process, local, unprefixed "python" tool with
// schema, answered by handle.
func pythonServer(schema json.RawMessage, handle mcpserver.ToolHandlerFunc) hub.ServerSpec {
	s := mcpserver.NewMCPServer("python", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewToolWithRawSchema("python", "Run Python.", schema), handle)
	return hub.ServerSpec{Name: "python", Transport: hub.TransportInProcess, InProcess: s, Unprefixed: true, Locality: hub.LocalityLocal}
}

// sentBody is the part of an expert request the sampling checks read.
type sentBody struct {
	Temperature         *float64 `json:"temperature"`
	MaxTokens           int      `json:"max_tokens"`
	MaxCompletionTokens int      `json:"max_completion_tokens"`
	Messages            []struct {
		Content string `json:"content"`
	} `json:"messages"`
}

func decodeSent(t *testing.T, body []byte) sentBody {
	t.Helper()
	var b sentBody
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestResearchEvidenceIsWhatTheHarnessShows runs search, code and answer
// against tools shaped like the built-ins: the experts read the passage in
// full as its own document and the code's stdout without the banner, and
// each expert is sampled with its own reference settings.
func TestResearchEvidenceIsWhatTheHarnessShows(t *testing.T) {
	cases := []struct {
		name          string
		modelID       string
		contextLength int
		temperature   float64
		maxTokens     int // max_tokens
		maxCompletion int // max_completion_tokens
		fullDocs      bool
	}{
		{"local Qwen3-32B", "Qwen/Qwen3-32B", 0, 0.2, 8000, 0, false},
		{"remote GPT-5 without a context length", "gpt-5", 0, 1, 0, 40000, true},
		{"unknown remote model", "acme-large", 0, 0.2, 32768, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var searches recorder
			h := startHub(t, builtinDocsServer(&searches), builtinPythonServer())
			orch := scripted(t,
				scriptedmodel.ToolCallReply("", "search", `{"model": "search-1"}`),
				scriptedmodel.ToolCallReply("", "enhance_reasoning", `{"model": "reasoner-1"}`),
				scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`))
			expert := scripted(t,
				scriptedmodel.RawTextReply("<query>per diem</query>"),
				scriptedmodel.RawTextReply("```python\nprint(6*7)\n```"),
				scriptedmodel.RawTextReply(`\boxed{42 euros}`))
			ep := llm.ModelEndpoint{Name: "x", BaseURL: expert.URL() + "/v1", ModelID: tc.modelID, Locality: hub.LocalityRemote,
				Roles: []string{policies.RoleSearch, policies.RoleReason, policies.RoleAnswer}, AnswerStyle: "boxed", ContextLength: tc.contextLength}
			if tc.modelID == "Qwen/Qwen3-32B" {
				ep.Locality = hub.LocalityLocal
			}
			eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"), ep)
			run, err := eps.Run(context.Background(), conductor.Task{Text: "What is the per diem?"}, &policies.Orchestrator{Temperature: 0.7})
			if err != nil {
				t.Fatal(err)
			}
			if run.Answer != "42 euros" {
				t.Fatalf("answer %q, trace:\n%s", run.Answer, observations(run))
			}
			if got := searches.calls(); len(got) != 1 || got[0]["k"] != float64(50) || got[0]["ungrouped"] != true {
				t.Errorf("search_documents calls %v, want the top 50 passages ungrouped", got)
			}
			reqs := expert.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d expert requests, want 3", len(reqs))
			}
			answer := decodeSent(t, reqs[2])
			prompt := answer.Messages[len(answer.Messages)-1].Content
			wantDoc := "Doc 1: " + passageText
			if !tc.fullDocs {
				wantDoc = "Doc 1: " + passageText[:1000]
			}
			for _, want := range []string{wantDoc + "\n\n", "```output\n42\n\n```"} {
				if !strings.Contains(prompt, want) {
					t.Errorf("answer prompt lacks %q:\n%s", want, prompt)
				}
			}
			for _, banned := range []string{"exit status", "sandbox", "**", "[bytes", "BM25 only"} {
				if strings.Contains(prompt, banned) {
					t.Errorf("answer prompt shows %q:\n%s", banned, prompt)
				}
			}
			for i, body := range reqs {
				b := decodeSent(t, body)
				if b.Temperature == nil || *b.Temperature != tc.temperature || b.MaxTokens != tc.maxTokens || b.MaxCompletionTokens != tc.maxCompletion {
					t.Errorf("expert request %d: temperature %v max_tokens %d max_completion_tokens %d, want %v %d %d",
						i+1, b.Temperature, b.MaxTokens, b.MaxCompletionTokens, tc.temperature, tc.maxTokens, tc.maxCompletion)
				}
			}
		})
	}
}
