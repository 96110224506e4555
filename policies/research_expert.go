package policies

import (
	"fmt"

	"github.com/toolhub/toolhub/conductor"
)

// researchExpert builds one alias tool's expert request (protocol §3.7):
// the hub writes the sub-prompt for the chosen model and reads its reply.
type researchExpert struct {
	st          *conductor.State
	state       ResearchState
	alias       Alias
	endpoint    string
	temperature float64
	counter     TokenCounter
}

func (x researchExpert) input() ExpertInput {
	return ExpertInput{Problem: x.st.Task, State: x.state, Budget: ExpertBudgetFor(x.alias.Role, x.alias.ContextLength), Counter: x.counter}
}

// ask is the action that sends msgs to the alias's endpoint.
func (x researchExpert) ask(purpose string, msgs []Message) conductor.Action {
	t := x.temperature
	body, err := EncodeRequest(ChatRequest{Model: modelID(x.st, x.endpoint), Messages: msgs, Temperature: &t})
	if err != nil {
		return fail(fmt.Errorf("render %s request: %w", purpose, err))
	}
	return conductor.Action{Kind: conductor.ActModel, Model: conductor.ModelCall{
		Endpoint: x.endpoint, Alias: x.alias.Name, Purpose: purpose, Role: x.alias.Role, Body: body}}
}

// answerFrom extracts the answer from the answer expert's outcome: empty
// when the call failed or the reply holds no answer in the alias's style.
func (x researchExpert) answerFrom(last *conductor.Outcome) string {
	reply, err := replyContent(last)
	if err != nil {
		return ""
	}
	answer, _ := ExtractAnswer(x.alias.AnswerStyle, reply)
	return answer
}

// searchTools are the tools a search runs on, in order, when offered.
var searchTools = []string{ToolSearchDocuments, ToolWebSearch}

// search runs a query on search_documents and web_search, whichever are
// offered, best hit first; a failed call adds no hits.
type search struct {
	query   string
	next    int  // index into searchTools of the next tool to consider
	pending bool // a call is out
	found   bool // some search tool was offered
	hits    []string
}

// step reads the outcome of the call out, if any, and returns the next
// call; done is true when every tool was tried.
func (s *search) step(st *conductor.State, last *conductor.Outcome) (a conductor.Action, done bool) {
	if s.pending {
		s.pending = false
		if !last.Failed() {
			s.hits = append(s.hits, conductor.ResultTexts(last.Result.Raw)...)
		}
	}
	for s.next < len(searchTools) {
		name := searchTools[s.next]
		s.next++
		if _, ok := st.Tool(name); !ok {
			continue
		}
		s.found, s.pending = true, true
		return conductor.Action{Kind: conductor.ActTool, Tool: name,
			Args: mustRawJSON(map[string]string{"query": s.query}), Purpose: "search"}, false
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
	for _, m := range st.Models {
		if m.Name == endpoint {
			return m.ModelID
		}
	}
	return ""
}
