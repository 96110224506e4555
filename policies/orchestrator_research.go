package policies

import (
	"context"
	"fmt"

	"github.com/toolhub/toolhub/conductor"
)

// Built-in tools research mode runs on when present in the catalog.
const (
	ToolSearchDocuments = "search_documents"
	ToolWebSearch       = "web_search"
	ToolPython          = "python"
)

// decideResearch runs one research-mode turn (protocol §3.6).
func (o *Orchestrator) decideResearch(ctx context.Context, st *conductor.State, mem *orchestratorMemory) (conductor.Decision, error) {
	table := aliasesFor(st.Models, RoleSearch, RoleReason, RoleAnswer)
	offered := OfferedFrom(table.aliases)
	if len(offered[ToolAnswer]) == 0 {
		return conductor.Decision{}, fmt.Errorf("no allowed model has the answer role")
	}
	msgs := ResearchMessages(st.Task, o.sentences(st), mem.research, o.counter())
	req := ResearchRequest(st.Orchestrator.ModelID, o.Temperature, msgs, ResearchTools(table.aliases))
	msg, ok, err := o.callOrchestrator(ctx, st, req)
	if err != nil {
		return o.orchestratorError(ctx, st, mem, err)
	}
	if !ok {
		return conductor.Decision{}, nil
	}
	parsed := ParseReply(msg)
	chosen, rejected := SelectResearchCall(parsed.Candidates, offered)
	for _, r := range rejected {
		st.Observe(r.Observation())
	}
	if chosen == nil {
		st.Observe("no valid tool call in the orchestrator's reply")
		return conductor.Decision{}, nil
	}
	alias, _ := FindAlias(table.aliases, chosen.Alias)
	x := researchExpert{st: st, state: &mem.research, alias: alias, endpoint: table.endpoint[alias.Name],
		temperature: o.Temperature, counter: o.counter()}
	switch chosen.Name {
	case ToolSearch:
		x.search(ctx)
	case ToolReason:
		x.reason(ctx)
	case ToolAnswer:
		answer := x.answer(ctx)
		return conductor.Decision{Final: true, Answer: answer}, nil
	}
	return conductor.Decision{}, nil
}

func (o *Orchestrator) counter() TokenCounter {
	if o.Counter == nil {
		return DefaultCounter()
	}
	return o.Counter
}

// researchExpert runs one alias tool: the hub writes the sub-prompt, the
// chosen model replies, and its extracted output runs on a tool.
type researchExpert struct {
	st          *conductor.State
	state       *ResearchState
	alias       Alias
	endpoint    string
	temperature float64
	counter     TokenCounter
}

func (x researchExpert) input() ExpertInput {
	return ExpertInput{Problem: x.st.Task, State: *x.state, Budget: ExpertBudgetFor(x.alias.Role, x.alias.ContextLength), Counter: x.counter}
}

// ask sends msgs to the alias's endpoint and returns the reply content.
func (x researchExpert) ask(ctx context.Context, purpose string, msgs []Message) (string, error) {
	t := x.temperature
	req := ChatRequest{Model: modelID(x.st, x.endpoint), Messages: msgs, Temperature: &t}
	body, err := EncodeRequest(req)
	if err != nil {
		return "", err
	}
	reply, err := x.st.CallModel(ctx, conductor.ModelCall{Endpoint: x.endpoint, Alias: x.alias.Name, Purpose: purpose, Role: x.alias.Role, Body: body})
	if err != nil {
		return "", err
	}
	msg, err := decodeMessage(reply.Body)
	if err != nil {
		return "", err
	}
	return msg.Content, nil
}

func (x researchExpert) search(ctx context.Context) {
	reply, err := x.ask(ctx, "search query", SearchPrompt(x.input()))
	query := x.st.Task
	if err == nil {
		query = reply
	}
	q, ok := ExtractQuery(query)
	if !ok {
		x.st.Observe("the search query is shorter than 5 characters; no search")
		return
	}
	hits := searchHits(ctx, x.st, q)
	added := x.state.AddDocs(hits)
	x.st.Observe(fmt.Sprintf("search %q: %d results, %d new documents", q, len(hits), added))
}

// searchHits runs q on search_documents and web_search, whichever are
// offered, best hit first.
func searchHits(ctx context.Context, st *conductor.State, q string) []string {
	args := mustRawJSON(map[string]string{"query": q})
	var hits []string
	found := false
	for _, name := range []string{ToolSearchDocuments, ToolWebSearch} {
		if _, ok := st.Tool(name); !ok {
			continue
		}
		found = true
		res, err := st.CallTool(ctx, name, args, "search")
		if err != nil || res.IsError {
			continue
		}
		hits = append(hits, conductor.ResultTexts(res.Raw)...)
	}
	if !found {
		st.Observe("no search tool is available")
	}
	return hits
}

func (x researchExpert) reason(ctx context.Context) {
	reply, err := x.ask(ctx, "python code", ReasonPrompt(x.input()))
	if err != nil {
		return
	}
	code, ok := ExtractPython(reply)
	if !ok {
		x.st.Observe("the reasoner wrote no ```python block; nothing ran")
		return
	}
	if _, ok := x.st.Tool(ToolPython); !ok {
		x.st.Observe("no python tool is available; the code did not run")
		return
	}
	res, err := x.st.CallTool(ctx, ToolPython, mustRawJSON(map[string]string{"code": code}), "run code")
	if err != nil {
		return
	}
	stdout := conductor.ResultText(res.Raw, 0)
	if !x.state.AddCode(code, stdout) {
		x.st.Observe("the code printed nothing")
	}
}

func (x researchExpert) answer(ctx context.Context) string {
	reply, err := x.ask(ctx, "answer", AnswerPrompt(x.input(), x.alias.AnswerStyle))
	if err != nil {
		return ""
	}
	answer, _ := ExtractAnswer(x.alias.AnswerStyle, reply)
	return answer
}
