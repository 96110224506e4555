package policies

import (
	"fmt"

	"github.com/toolhub/toolhub/conductor"
)

// researchExpert builds one alias tool's expert request (protocol §3.7):
// the hub writes the sub-prompt for the chosen model and reads its reply.
// Budgets and sampling are the expert's own (ExpertSettingsFor), never the
// orchestrator's.
type researchExpert struct {
	st       *conductor.State
	state    ResearchState
	alias    Alias
	endpoint string
	counter  TokenCounter
	variant  Variant
}

// settings are the expert's budgets and sampling (protocol §3.7).
func (x researchExpert) settings() ExpertSettings {
	return ExpertSettingsFor(modelID(x.st, x.endpoint), x.alias, x.variant)
}

// input is what the expert's prompt is built from (protocol §3.7).
func (x researchExpert) input() ExpertInput {
	s := x.settings()
	return ExpertInput{Problem: x.st.Task, State: x.state, Budget: s.Budget, Counter: x.counter, Llama: s.Llama,
		Variant: x.variant}
}

// ask is the action that sends msgs to the alias's endpoint, sampled as
// the reference samples that expert (protocol §3.7).
func (x researchExpert) ask(purpose string, msgs []Message) conductor.Action {
	s := x.settings()
	req := ChatRequest{Model: modelID(x.st, x.endpoint), Messages: msgs, Temperature: float64Ptr(s.Temperature)}
	if s.CompletionTokens {
		req.MaxCompletionTokens = s.Budget.MaxTokens
	} else {
		req.MaxTokens = s.Budget.MaxTokens
	}
	body, err := EncodeRequest(req)
	if err != nil {
		return fail(fmt.Errorf("render %s request: %w", purpose, err))
	}
	return conductor.Action{Kind: conductor.ActModel, Model: conductor.ModelCall{
		Endpoint: x.endpoint, Alias: x.alias.Name, Purpose: purpose, Role: x.alias.Role, Body: body}}
}

// answerFrom extracts the answer from the answer expert's outcome: empty
// when the reply holds no answer in the alias's style (protocol §3.6 step
// 6: the episode still ends). err is set when the call failed or its reply
// could not be read: then there is no reply to take an answer from, and
// the turn is consumed instead (§3.6 step 1).
func (x researchExpert) answerFrom(last *conductor.Outcome) (string, error) {
	reply, err := replyContent(last)
	if err != nil {
		return "", fmt.Errorf("the answer call to %s failed: %w", x.alias.Name, err)
	}
	answer, _ := ExtractAnswer(x.alias.AnswerStyle, reply)
	return answer, nil
}

// searchTools are the tools a search runs on, in order, when offered.
var searchTools = []string{ToolSearchDocuments, ToolWebSearch}

// search runs a query as the reference search tool does (protocol §3.7):
// the local retriever (search_documents, top k passages: 50, or 150 in the
// FRAMES variant) first, and the web (web_search) only when
// search_documents is not offered or kept fewer than 3 passages. Hits are
// best first; a failed call adds none.
type search struct {
	query   string
	k       int  // passages to ask search_documents for; 0: searchTopK
	next    int  // index into searchTools of the next tool to consider
	pending bool // a call is out
	found   bool // some search tool was offered
	hits    []string
}

// step reads the outcome of the call out, if any, and returns the next
// call; done is true when no further tool is to run.
func (s *search) step(st *conductor.State, last *conductor.Outcome) (a conductor.Action, done bool) {
	if s.pending {
		s.pending = false
		if !last.Failed() {
			s.hits = append(s.hits, searchDocs(last.Result.Raw)...)
		}
		if len(s.hits) >= webFallbackBelow {
			return conductor.Action{}, true
		}
	}
	for s.next < len(searchTools) {
		name := searchTools[s.next]
		s.next++
		tool, ok := st.Tool(name)
		if !ok {
			continue
		}
		s.found, s.pending = true, true
		return conductor.Action{Kind: conductor.ActTool, Tool: name, Args: searchArgs(tool, s.query, s.k), Purpose: "search"}, false
	}
	return conductor.Action{}, true
}

// notes are the search's observations once done.
func (s *search) notes() []string {
	if !s.found {
		return []string{"no search tool is available"}
	}
	return nil
}

func modelID(st *conductor.State, endpoint string) string {
	m, _ := offeredModel(st.Models, endpoint)
	return m.ModelID
}
