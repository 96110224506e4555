package policies

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/hub"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// checkGolden compares got with testdata/name, or rewrites it under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./policies -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; diff against:\n%s\n(run with -update after reviewing)", path, got)
	}
}

// checkRequestGolden writes a request as the pretty-printed body
// (name.golden.json) and as a readable transcript (name.golden.txt), and
// checks that the compact wire body holds the same JSON.
func checkRequestGolden(t *testing.T, name string, req ChatRequest) {
	t.Helper()
	pretty, err := EncodeRequestIndent(req)
	if err != nil {
		t.Fatal(err)
	}
	wire, err := EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	var compacted bytes.Buffer
	if err := json.Compact(&compacted, pretty); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(compacted.Bytes(), wire) {
		t.Fatalf("pretty and wire bodies differ:\n%s\n%s", compacted.Bytes(), wire)
	}
	if bytes.Contains(wire, []byte(`\u003c`)) {
		t.Errorf("wire body escapes '<': %s", wire)
	}
	checkGolden(t, name+".golden.json", append(pretty, '\n'))
	checkGolden(t, name+".golden.txt", []byte(transcript(t, req)))
}

// transcript renders a request for reading: message texts and tool
// descriptions with their newlines, as the protocol document prints them.
func transcript(t *testing.T, req ChatRequest) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "model=%s temperature=%v max_tokens=%d tool_choice=%v parallel_tool_calls=%v\n",
		req.Model, *req.Temperature, req.MaxTokens, req.ToolChoice, *req.ParallelToolCalls)
	for i, m := range req.Messages {
		fmt.Fprintf(&b, "\n===== message %d: %s", i+1, m.Role)
		if m.ToolCallID != "" {
			fmt.Fprintf(&b, " (tool_call_id %s)", m.ToolCallID)
		}
		fmt.Fprintf(&b, " =====\n%s\n", m.Content)
		for _, tc := range m.ToolCalls {
			fmt.Fprintf(&b, "[tool call %s] %s %s\n", tc.ID, tc.Function.Name, tc.Function.Arguments)
		}
	}
	for i, tool := range req.Tools {
		fmt.Fprintf(&b, "\n===== tool %d: %s =====\n%s\n", i+1, tool.Function.Name, tool.Function.Description)
		var params struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(tool.Function.Parameters, &params); err != nil {
			t.Fatal(err)
		}
		if isResearchTool(tool.Function.Name) || tool.Function.Name == ToolExperts {
			for name, p := range params.Properties {
				fmt.Fprintf(&b, "--- parameter %s ---\n%s\n", name, p.Description)
			}
			continue
		}
		fmt.Fprintf(&b, "--- parameters ---\n%s\n", tool.Function.Parameters)
	}
	return b.String()
}

const goldenProblem = "What is the smallest prime p such that p^2 + 2 is also prime?"

func TestGoldenResearchTurnOne(t *testing.T) {
	msgs := ResearchMessages(goldenProblem, nil, ResearchState{}, nil, VariantHLE)
	req := ResearchRequest("orchestrator-8b", 0, msgs, ResearchTools(paperAliases()))
	checkRequestGolden(t, "research_turn1", req)
}

func TestGoldenResearchDocsCodePreferences(t *testing.T) {
	var st ResearchState
	st.AddDocs([]string{
		"Best hit: p = 3 gives 3^2 + 2 = 11, which is prime.",
		"Second hit: " + strings.Repeat("For any prime p > 3, p^2 ≡ 1 (mod 3), so p^2 + 2 is divisible by 3. ", 20),
	})
	st.AddCode("for p in [2, 3, 5]:\n    print(p, p*p + 2)", "2 6\n3 11\n5 27\n")
	prefs := []string{"I want to be cost efficient if possible.", "Prefer search-3 for searching."}
	msgs := ResearchMessages(goldenProblem, prefs, st, nil, VariantHLE)
	aliases := withoutAliases(paperAliases(), "answer-1", "reasoner-1")
	req := ResearchRequest("orchestrator-8b", 0, msgs, ResearchTools(aliases))
	checkRequestGolden(t, "research_docs_code_prefs", req)
}

// TestGoldenResearchTruncated uses a counter of 20 tokens per byte so that
// the 27,000 and 12,000 token budgets cut a context of about a kilobyte: the
// documents lose their head, the code loses its first fence and gets the
// "```\n" repair.
func TestGoldenResearchTruncated(t *testing.T) {
	var st ResearchState
	st.AddDocs([]string{"First search, best hit.", "First search, second hit."})
	st.AddDocs([]string{"Second search, best hit: " + strings.Repeat("a long page about primes of the form p^2 + 2. ", 20)})
	st.AddCode("import sympy\n"+strings.Repeat("# scan the primes below 50 and test p*p + 2\n", 12)+
		"print([p for p in sympy.primerange(2, 50) if sympy.isprime(p*p + 2)])", "[3]\n")
	st.AddCode("print(3**2 + 2)", "11\n")
	msgs := ResearchMessages(goldenProblem, []string{"I need the answer quickly, so prefer faster tools."}, st, scaledCounter{perByte: 20}, VariantHLE)
	req := ResearchRequest("orchestrator-8b", 0, msgs, ResearchTools(onlyAliases(paperAliases(), "search-3", "answer-4")))
	checkRequestGolden(t, "research_truncated", req)
}

// TestGoldenResearchFRAMES renders the FRAMES variant's turns
// (eval_frames.py): the code header written even without code, documents
// cut to 4,000 characters without " ...", and, at 20 tokens per byte, a
// flat 24,000-token budget that a long problem does not shrink.
func TestGoldenResearchFRAMES(t *testing.T) {
	t.Run("turn one", func(t *testing.T) {
		msgs := ResearchMessages(goldenProblem, nil, ResearchState{}, nil, VariantFRAMES)
		req := ResearchRequest("orchestrator-8b", 0, msgs, ResearchTools(paperAliases()))
		checkRequestGolden(t, "research_frames_turn1", req)
	})
	t.Run("documents", func(t *testing.T) {
		var st ResearchState
		st.AddDocs([]string{"Best hit: p = 3 gives 3^2 + 2 = 11, which is prime.",
			"Second hit: " + strings.Repeat("For any prime p > 3, p^2 ≡ 1 (mod 3), so p^2 + 2 is divisible by 3. ", 80)})
		msgs := ResearchMessages(goldenProblem, nil, st, nil, VariantFRAMES)
		req := ResearchRequest("orchestrator-8b", 0, msgs, ResearchTools(withoutAliases(paperAliases(), "search-1", "search-2", "search-3")))
		checkRequestGolden(t, "research_frames_docs", req)
	})
	t.Run("truncated", func(t *testing.T) {
		var st ResearchState
		st.AddDocs([]string{"First search, best hit.", "First search, second hit: " + strings.Repeat("primes of the form p^2 + 2. ", 50)})
		st.AddCode("print(3**2 + 2)", "11\n")
		problem := goldenProblem + strings.Repeat(" Explain each step.", 40)
		msgs := ResearchMessages(problem, nil, st, scaledCounter{perByte: 20}, VariantFRAMES)
		req := ResearchRequest("orchestrator-8b", 0, msgs, ResearchTools(onlyAliases(paperAliases(), "reasoner-3", "answer-4")))
		checkRequestGolden(t, "research_frames_truncated", req)
	})
}

func TestGoldenToolMode(t *testing.T) {
	mcpTools := []ToolSpec{
		{Name: "travel__get_booking", Description: "Look up a booking by its id.", Locality: hub.LocalityRemote,
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"id": {"type": "string", "description": "Booking id"}}, "required": ["id"]}`)},
		{Name: "files__read_file", Description: "Read a text file under the allowed roots.", Locality: hub.LocalityLocal,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)},
	}
	history := []Message{
		{Role: RoleUser, Content: "I need to change my flight."},
		{Role: RoleAssistant, Content: "", ToolCalls: []ToolCall{{ID: "c1", Type: "function",
			Function: FunctionCall{Name: "travel__get_booking", Arguments: `{"id":"X1"}`}}}},
		{Role: RoleTool, ToolCallID: "c1", Content: `{"id":"X1","flight":"LH 454","date":"2025-12-03"}`},
		{Role: RoleAssistant, Content: "Your booking X1 is on LH 454 on 3 December. Which date would you like instead?"},
		{Role: RoleUser, Content: "The 5th, same time please."},
	}
	policy := ToolModePolicy(mcpTools, PrivacyPreferLocal)
	experts := paperExperts()
	tools := ToolModeTools(mcpTools, experts)
	msgs := ToolModeMessages(ToolModeSystem(policy, experts), history, tools, nil)
	checkRequestGolden(t, "toolmode", ToolModeRequest("orchestrator-8b", 0, msgs, tools))
}

func withoutAliases(all []Alias, names ...string) []Alias {
	var out []Alias
	for _, a := range all {
		if !contains(names, a.Name) {
			out = append(out, a)
		}
	}
	return out
}

func onlyAliases(all []Alias, names ...string) []Alias {
	var out []Alias
	for _, a := range all {
		if contains(names, a.Name) {
			out = append(out, a)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// paperAliases is the evaluation alias set of protocol §3.2 with the
// capability sentences of the training tools.json, in its order.
func paperAliases() []Alias {
	s := time.Second
	return []Alias{
		{Name: "reasoner-1", Role: RoleReason, PriceIn: 1.25, PriceOut: 10, Latency: 31 * s, Locality: hub.LocalityRemote, ContextLength: 400000,
			Capability: "reasoner-1 demonstrates strong understanding and reasoning capabilities, which usually provides reliable insights."},
		{Name: "reasoner-2", Role: RoleReason, PriceIn: 0.25, PriceOut: 2, Latency: 25 * s, Locality: hub.LocalityRemote, ContextLength: 400000,
			Capability: "reasoner-2 can analyze some problems, but could hallucinate and make mistakes in difficult scenarios."},
		{Name: "reasoner-3", Role: RoleReason, PriceIn: 0.8, PriceOut: 0.8, Latency: 9 * s, Locality: hub.LocalityLocal, ContextLength: 32768,
			Capability: "reasoner-3 can reason over the context and reveal the logic."},
		{Name: "answer-1", Role: RoleAnswer, AnswerStyle: StyleTagged, PriceIn: 1.25, PriceOut: 10, Latency: 96 * s, Locality: hub.LocalityRemote,
			Capability: "answer-1 exhibits strong functional calling abilities and performs excellent in most domains (math, physics, social science, etc.)."},
		{Name: "answer-2", Role: RoleAnswer, AnswerStyle: StyleTagged, PriceIn: 0.25, PriceOut: 2, Latency: 27 * s, Locality: hub.LocalityRemote,
			Capability: "answer-2 presents reasonable solutions in some tasks, but could get stuck in complex reasoning and specific domain knowledge."},
		{Name: "answer-3", Role: RoleAnswer, AnswerStyle: StyleTagged, PriceIn: 0.9, PriceOut: 0.9, Latency: 15 * s, Locality: hub.LocalityRemote,
			Capability: "answer-3 could solve easy to medium tasks, but is not capable of tackling tasks with strong expertise and long-horizon planning."},
		{Name: "answer-4", Role: RoleAnswer, AnswerStyle: StyleBoxed, PriceIn: 0.8, PriceOut: 0.8, Latency: 11 * s, Locality: hub.LocalityLocal,
			Capability: "answer-4 demonstrates basic capability: it can understand basic instructions, do simple steps, yet it sometimes misreads details, mixes concepts."},
		{Name: "answer-math-1", Role: RoleAnswer, AnswerStyle: StyleBoxed, PriceIn: 0.9, PriceOut: 0.9, Latency: 13 * s, Locality: hub.LocalityRemote,
			Capability: "answer-math-1 can solve moderate (middle school) math problem, though it becomes incapable in more difficult tasks."},
		{Name: "answer-math-2", Role: RoleAnswer, AnswerStyle: StyleBoxed, PriceIn: 0.2, PriceOut: 0.2, Latency: 9 * s, Locality: hub.LocalityLocal,
			Capability: "answer-math-2 can follow simple instructions and perform easy (primary-level) math problems, but struggle in more complex logic."},
		{Name: "search-1", Role: RoleSearch, PriceIn: 1.25, PriceOut: 10, Latency: 22 * s, Locality: hub.LocalityRemote,
			Capability: "search-1 usually identifies the missing information and can write concise queries for effective search."},
		{Name: "search-2", Role: RoleSearch, PriceIn: 0.25, PriceOut: 2, Latency: 16 * s, Locality: hub.LocalityRemote,
			Capability: "search-2 can reason over the context and write queries to find the missing content for answering questions."},
		{Name: "search-3", Role: RoleSearch, PriceIn: 0.8, PriceOut: 0.8, Latency: 8 * s, Locality: hub.LocalityLocal,
			Capability: "search-3 can also write queries to find information."},
	}
}

// paperExperts is the τ² expert set of protocol §4.
func paperExperts() []Alias {
	s := time.Second
	return []Alias{
		{Name: "expert-1", Role: RoleExpert, PriceIn: 1.25, PriceOut: 10, Latency: 96 * s, Locality: hub.LocalityRemote,
			Capability: "expert-1 exhibits strong functional calling abilities and performs excellent in most domains (math, physics, social science, etc.), but could lack domain knowledge in some cases."},
		{Name: "expert-2", Role: RoleExpert, PriceIn: 0.25, PriceOut: 2, Latency: 27 * s, Locality: hub.LocalityRemote,
			Capability: "expert-2 presents reasonable solutions in most tasks, but could get stuck in complex reasoning and specific domain knowledge."},
		{Name: "expert-3", Role: RoleExpert, PriceIn: 0.8, PriceOut: 0.8, Latency: 11 * s, Locality: hub.LocalityLocal,
			Capability: "expert-3 demonstrates moderate performance: it can parse complex prompts, performs some mathematical derivations, call functions, yet it sometimes misreads details, mixes concepts."},
	}
}

// paperOffered is what the paper's alias set offers per tool.
func paperOffered() Offered { return OfferedFrom(paperAliases()) }

// scaledCounter counts every byte as perByte tokens, so that the reference
// budgets (27,000 and 12,000 tokens) cut texts of a readable size. It has
// no KeepTail, so cuts go through the binary search.
type scaledCounter struct{ perByte int }

func (c scaledCounter) Count(text string) int { return len(text) * c.perByte }
