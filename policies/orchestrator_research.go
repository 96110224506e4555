package policies

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/toolhub/toolhub/conductor"
)

// Built-in tools research mode runs on when present in the catalog.
const (
	ToolSearchDocuments = "search_documents"
	ToolWebSearch       = "web_search"
	ToolPython          = "python"
)

// errNoAnswerAlias refuses a research episode no allowed model may answer.
var errNoAnswerAlias = errors.New(`refusing to start: no allowed model has the "answer" role, so the orchestrator could never answer; ` +
	`give a model the answer role ("roles": ["answer"] in its entry under "models"), or allow one that has it in the preferences`)

// researchStep is one decision of a research-mode turn (protocol §3.6):
// the orchestrator's request, then the chosen alias tool's expert request
// (§3.7), then the tool its output runs on.
func (o *Orchestrator) researchStep(st *conductor.State, mem *OrchestratorMemory, last *conductor.Outcome) conductor.Action {
	switch mem.phase {
	case phaseStart:
		table := researchAliases(st)
		if o.DropSearchWithDocuments && len(mem.research.Docs) > 0 {
			table = table.withoutRole(RoleSearch)
		}
		mem.table = table
		if len(OfferedFrom(table.aliases)[ToolAnswer]) == 0 {
			// Research mode ends only through an answer alias: without one
			// the orchestrator could search but never finish (protocol §5).
			return fail(errNoAnswerAlias)
		}
		msgs := ResearchMessages(st.Task, o.sentences(st), mem.research, o.counter(), o.Variant)
		return o.orchestratorCall(st, mem, ResearchRequest(st.Orchestrator.ModelID, o.Temperature, msgs, ResearchTools(table.aliases)))
	case phaseDecide:
		return o.chooseResearch(st, mem, last, mem.table)
	case phaseQuery:
		query := st.Task
		if reply, err := replyContent(last); err == nil {
			query = reply
		}
		vs := o.Variant.settings()
		q, ok := ExtractQuery(query)
		if !ok || utf8.RuneCountInString(q) < vs.minQuery {
			mem.note(fmt.Sprintf("the search query is shorter than %d characters; no search", vs.minQuery))
			return endTurn()
		}
		mem.search, mem.phase = search{query: q, k: vs.searchTopK}, phaseSearch
		return o.researchStep(st, mem, nil)
	case phaseSearch:
		a, done := mem.search.step(st, last)
		if !done {
			return a
		}
		mem.notes = append(mem.notes, mem.search.notes()...)
		added := mem.research.AddDocs(mem.search.hits)
		mem.note(fmt.Sprintf("search %q: %d results, %d new documents", mem.search.query, len(mem.search.hits), added))
		return endTurn()
	case phaseCode:
		return o.runCode(st, mem, last)
	case phasePython:
		if last.Err == nil && !mem.research.AddCode(mem.code, codeStdout(last.Result)) {
			mem.note("the code printed nothing")
		}
		return endTurn()
	case phaseAnswer:
		answer, err := o.expert(st, mem).answerFrom(last)
		if err != nil {
			mem.note(err.Error() + "; no answer this turn")
			return endTurn()
		}
		return conductor.Action{Kind: conductor.ActAnswer, Answer: answer}
	}
	return endTurn()
}

// chooseResearch reads the orchestrator's reply and starts the first valid
// alias call (protocol §3.5); the rest are noted as rejected.
func (o *Orchestrator) chooseResearch(st *conductor.State, mem *OrchestratorMemory, last *conductor.Outcome, table aliasTable) conductor.Action {
	msg, a, ok := o.orchestratorReply(st, mem, last)
	if !ok {
		return a
	}
	chosen, rejected := SelectResearchCall(ParseReply(msg).Candidates, OfferedFrom(table.aliases))
	for _, r := range table.explain(rejected) {
		mem.note(r.Observation())
	}
	if chosen == nil {
		mem.note("no valid tool call in the orchestrator's reply")
		return endTurn()
	}
	mem.alias, _ = FindAlias(table.aliases, chosen.Alias)
	mem.endpoint = table.endpoint[mem.alias.Name]
	x := o.expert(st, mem)
	switch chosen.Name {
	case ToolSearch:
		mem.phase = phaseQuery
		return x.ask("search query", SearchPrompt(x.input()))
	case ToolReason:
		mem.phase = phaseCode
		return x.ask("python code", ReasonPrompt(x.input()))
	case ToolAnswer:
		mem.phase = phaseAnswer
		return x.ask("answer", AnswerPrompt(x.input(), x.alias.AnswerStyle))
	}
	return endTurn()
}

// runCode sends the reasoner's ```python block to the python tool.
func (o *Orchestrator) runCode(st *conductor.State, mem *OrchestratorMemory, last *conductor.Outcome) conductor.Action {
	reply, err := replyContent(last)
	if err != nil {
		return endTurn()
	}
	code, ok := ExtractPython(reply)
	if !ok {
		mem.note("the reasoner wrote no ```python block; nothing ran")
		return endTurn()
	}
	tool, ok := st.Tool(ToolPython)
	if !ok {
		mem.note("no python tool is available; the code did not run")
		return endTurn()
	}
	mem.code, mem.phase = code, phasePython
	return conductor.Action{Kind: conductor.ActTool, Tool: ToolPython, Args: codeArgs(tool, code), Purpose: "run code"}
}

// researchAliases are the research aliases of the offered models
// (protocol §3.2).
func researchAliases(st *conductor.State) aliasTable {
	return aliasesFor(st.Roster, st.Models, st.Withheld, RoleSearch, RoleReason, RoleAnswer)
}

func (o *Orchestrator) expert(st *conductor.State, mem *OrchestratorMemory) researchExpert {
	return researchExpert{st: st, state: mem.research, alias: mem.alias, endpoint: mem.endpoint, counter: o.counter(),
		variant: o.Variant}
}
