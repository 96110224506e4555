package policies

import (
	"fmt"
	"strings"
)

// Token budgets of the orchestrator's context (HLE reference).
const (
	researchContextBudget = 27000 // context + problem
	researchCodeBudget    = 12000 // code + attempts
	researchAttemptBudget = 8000
	researchDocChars      = 1200 // characters of each document shown
)

// CodeRun is one executed snippet and its standard output.
type CodeRun struct {
	Code   string
	Stdout string
}

// Attempt is an earlier answer. It stays empty in practice: answer ends the
// episode. It is kept so the rendering matches the reference.
type Attempt struct {
	Model  string
	Answer string
}

// ResearchState is the evidence of a research-mode episode. The prompt is
// rebuilt from it every turn; nothing else carries state.
type ResearchState struct {
	Docs     []string
	Code     []CodeRun
	Attempts []Attempt
}

// AddDocs appends the hits of one search in reverse rank order, skipping
// exact duplicates, so the best hit of the latest search sits last: nearest
// the question and last to be cut. hits is best first. It returns how many
// documents were new.
func (s *ResearchState) AddDocs(hits []string) int {
	seen := make(map[string]bool, len(s.Docs)+len(hits))
	for _, d := range s.Docs {
		seen[d] = true
	}
	added := 0
	for i := len(hits) - 1; i >= 0; i-- {
		if seen[hits[i]] {
			continue
		}
		seen[hits[i]] = true
		s.Docs = append(s.Docs, hits[i])
		added++
	}
	return added
}

// AddCode records a run when its standard output is not blank, as the
// reference does; it reports whether the run was kept.
func (s *ResearchState) AddCode(code, stdout string) bool {
	if strings.TrimSpace(stdout) == "" {
		return false
	}
	s.Code = append(s.Code, CodeRun{Code: code, Stdout: stdout})
	return true
}

// researchContext assembles the orchestrator's {context}: code and
// attempts cut to 12,000 tokens; in the HLE variant documents cut to 1,200
// characters and everything cut to 27,000 − tokens(problem), in the FRAMES
// variant documents cut to 4,000 characters and everything to a flat
// 24,000 under the code header, written even without code. Every cut keeps
// the tail.
func researchContext(problem string, st ResearchState, c TokenCounter, v Variant) string {
	vs := v.settings()
	docs := docsText(st.Docs, vs.docChars, vs.docSuffix)
	codeAttempts := codeText(st.Code) + attemptsText(st.Attempts, c)
	cut := cutWithFenceRepair(c, codeAttempts, researchCodeBudget)

	// The reference compares the count of code and attempts before their
	// cut (cut_seq's effective_length): output past the budget leaves the
	// cut code alone in the context, without the documents.
	budget := vs.contextBudget
	if !vs.flatBudget {
		budget -= c.Count(problem)
	}
	if c.Count(codeAttempts) >= budget {
		return cut
	}
	var ctx string
	if cut != "" || vs.flatBudget {
		ctx = keepTail(c, docs+"\npython code and execution outputs:\n"+cut, budget)
	} else {
		ctx = keepTail(c, docs, budget)
	}
	if docs != "" {
		ctx = "Documents:\n" + ctx
	}
	return ctx
}

// docsText renders "Doc {i}: {text}{suffix}\n\n" per document, each cut to
// its first maxChars characters when maxChars > 0.
func docsText(docs []string, maxChars int, suffix string) string {
	var b strings.Builder
	for i, d := range docs {
		if maxChars > 0 {
			d = firstRunes(d, maxChars)
		}
		fmt.Fprintf(&b, "Doc %d: %s%s\n\n", i+1, d, suffix)
	}
	return b.String()
}

// codeText renders each run as a python fence followed by an output fence.
func codeText(runs []CodeRun) string {
	var b strings.Builder
	for _, r := range runs {
		fmt.Fprintf(&b, "```python\n%s\n```\n\n```output\n%s\n```\n\n", r.Code, r.Stdout)
	}
	return b.String()
}

// attemptsText renders earlier answers, cut to 8,000 tokens; a cut text is
// prefixed with "Attempt answer: ".
func attemptsText(attempts []Attempt, c TokenCounter) string {
	var b strings.Builder
	for i, a := range attempts {
		fmt.Fprintf(&b, "Attempt%d answer by %s: %s\n", i+1, a.Model, a.Answer)
	}
	text := keepTail(c, b.String(), researchAttemptBudget)
	if text != "" && !strings.HasPrefix(text, "Attempt") {
		text = "Attempt answer: " + text
	}
	return text
}

// cutWithFenceRepair keeps the last n tokens of text; when the cut broke a
// code fence it reopens one with "```\n".
func cutWithFenceRepair(c TokenCounter, text string, n int) string {
	cut := keepTail(c, text, n)
	if cut != text && cut != "" && !strings.HasPrefix(cut, "```") {
		cut = "```\n" + cut
	}
	return cut
}
