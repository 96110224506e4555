package policies

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAddDocsReverseRankWithoutDuplicates(t *testing.T) {
	var st ResearchState
	if n := st.AddDocs([]string{"a", "b", "c"}); n != 3 {
		t.Errorf("first search added %d, want 3", n)
	}
	if n := st.AddDocs([]string{"d", "b", "d", "e"}); n != 2 {
		t.Errorf("second search added %d, want 2 (b is known, d repeats)", n)
	}
	want := []string{"c", "b", "a", "e", "d"}
	if !equalStrings(st.Docs, want) {
		t.Errorf("docs = %v, want %v (best hit of the latest search last)", st.Docs, want)
	}
}

func TestAddCodeKeepsOnlyPrintedRuns(t *testing.T) {
	var st ResearchState
	if st.AddCode("x = 1", "  \n") {
		t.Error("a run without output was kept")
	}
	if !st.AddCode("print(1)", "1\n") || len(st.Code) != 1 {
		t.Errorf("code = %+v", st.Code)
	}
}

func TestResearchContextAssembly(t *testing.T) {
	long := strings.Repeat("é", 1300) // 1,300 characters, 2,600 bytes
	tests := []struct {
		name string
		st   ResearchState
		want string
	}{
		{"empty", ResearchState{}, ""},
		{"docs only", ResearchState{Docs: []string{"alpha", "beta"}},
			"Documents:\nDoc 1: alpha ...\n\nDoc 2: beta ...\n\n"},
		{"document cut to 1,200 characters", ResearchState{Docs: []string{long}},
			"Documents:\nDoc 1: " + strings.Repeat("é", 1200) + " ...\n\n"},
		{"code only", ResearchState{Code: []CodeRun{{"print(1)", "1\n"}}},
			"\npython code and execution outputs:\n```python\nprint(1)\n```\n\n```output\n1\n\n```\n\n"},
		{"docs and code", ResearchState{Docs: []string{"alpha"}, Code: []CodeRun{{"print(1)", "1"}}},
			"Documents:\nDoc 1: alpha ...\n\n\npython code and execution outputs:\n```python\nprint(1)\n```\n\n```output\n1\n```\n\n"},
		{"attempts after code", ResearchState{Attempts: []Attempt{{"answer-4", "42"}}},
			"\npython code and execution outputs:\nAttempt1 answer by answer-4: 42\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := researchContext("Q", tt.st, DefaultCounter(), VariantHLE); got != tt.want {
				t.Errorf("context =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestResearchMessagesExact(t *testing.T) {
	st := ResearchState{Docs: []string{"alpha"}}
	msgs := ResearchMessages("Q?", []string{"I want to be cost efficient if possible.", " ", "Avoid answer-1 unless it is really needed."}, st, nil, VariantHLE)
	want := []Message{
		{Role: "system", Content: "You are good at using tools."},
		{Role: "user", Content: "Problem: Q?\nI want to be cost efficient if possible. Avoid answer-1 unless it is really needed.\n\nDocuments:\nDoc 1: alpha ...\n\n\n\nChoose an appropriate tool."},
	}
	if len(msgs) != len(want) {
		t.Fatalf("got %d messages, want 2", len(msgs))
	}
	for i := range want {
		if msgs[i].Role != want[i].Role || msgs[i].Content != want[i].Content {
			t.Errorf("message %d =\n%q\nwant\n%q", i, msgs[i].Content, want[i].Content)
		}
	}
}

// With 20 tokens per byte the budget is 27,000/20 = 1,350 bytes minus the
// problem; the context must be the tail of the documents.
func TestResearchContextKeepsTheTail(t *testing.T) {
	c := scaledCounter{perByte: 20}
	var st ResearchState
	for i := 0; i < 30; i++ {
		st.Docs = append(st.Docs, strings.Repeat(string(rune('a'+i%26)), 100))
	}
	got := researchContext("Q", st, c, VariantHLE)
	body, ok := strings.CutPrefix(got, "Documents:\n")
	if !ok {
		t.Fatalf("context lacks the Documents header: %q", got[:40])
	}
	if c.Count(body) > researchContextBudget-c.Count("Q") {
		t.Errorf("context has %d tokens, over the budget", c.Count(body))
	}
	if !strings.HasSuffix(body, "Doc 30: "+strings.Repeat("d", 100)+" ...\n\n") {
		t.Errorf("the last document was not kept whole: ...%q", body[len(body)-60:])
	}
	if strings.Contains(body, "Doc 1:") {
		t.Error("the first document survived a cut that must drop the head")
	}
}

func TestCodeCutRepairsTheFence(t *testing.T) {
	c := scaledCounter{perByte: 20} // 12,000 tokens = 600 bytes of code
	var st ResearchState
	for i := 0; i < 8; i++ {
		st.Code = append(st.Code, CodeRun{Code: strings.Repeat("x = 1\n", 10), Stdout: "ok"})
	}
	got := researchContext("Q", st, c, VariantHLE)
	code, ok := strings.CutPrefix(got, "\npython code and execution outputs:\n```\n")
	if !ok {
		t.Fatalf("cut code does not start with a reopened fence: %q", got[:60])
	}
	if c.Count(code) > researchCodeBudget {
		t.Errorf("code has %d tokens, over 12,000", c.Count(code))
	}
	if !strings.HasSuffix(code, "```output\nok\n```\n\n") {
		t.Errorf("the last run was not kept: %q", code[len(code)-40:])
	}
}

func TestFenceRepairOnlyWhenCut(t *testing.T) {
	c := scaledCounter{perByte: 1}
	text := "```python\na\n```\n\n```output\nb\n```\n\n"
	if got := cutWithFenceRepair(c, text, 1000); got != text {
		t.Errorf("uncut text changed: %q", got)
	}
	tail := "```output\nb\n```\n\n"
	if got := cutWithFenceRepair(c, text, len(tail)); got != tail {
		t.Errorf("a cut on a fence boundary got a repair: %q", got)
	}
	if got := cutWithFenceRepair(c, text, len(tail)+2); got != "```\n\n\n"+tail {
		t.Errorf("a cut inside a fence was not repaired: %q", got)
	}
}

func TestLongCodeReplacesTheContext(t *testing.T) {
	c := scaledCounter{perByte: 20}
	st := ResearchState{
		Docs: []string{"alpha"},
		Code: []CodeRun{{Code: strings.Repeat("y = 2\n", 250), Stdout: "done"}}, // 1,500 bytes: over 27,000 tokens
	}
	got := researchContext("Q", st, c, VariantHLE)
	if strings.Contains(got, "Documents:") || strings.Contains(got, "python code and execution outputs") {
		t.Errorf("oversized code must be the whole context, got %q", got[:50])
	}
	if !strings.HasPrefix(got, "```\n") || !strings.HasSuffix(got, "done\n```\n\n") {
		t.Errorf("context = %q...%q", got[:10], got[len(got)-12:])
	}
}

func TestProblemOverBudgetLeavesNoContext(t *testing.T) {
	problem := strings.Repeat("p", 2000) // 40,000 tokens at 20 per byte
	got := researchContext(problem, ResearchState{Docs: []string{"alpha"}}, scaledCounter{perByte: 20}, VariantHLE)
	if got != "" {
		t.Errorf("context = %q, want none (the reference's else branch: code alone, here empty)", got)
	}
}

func TestAttemptsCutGetsPrefix(t *testing.T) {
	c := scaledCounter{perByte: 100} // 8,000 tokens = 80 bytes
	var attempts []Attempt
	for i := 0; i < 5; i++ {
		attempts = append(attempts, Attempt{Model: "answer-4", Answer: strings.Repeat("9", 20)})
	}
	got := attemptsText(attempts, c)
	if !strings.HasPrefix(got, "Attempt answer: ") || !strings.HasSuffix(got, "Attempt5 answer by answer-4: "+strings.Repeat("9", 20)+"\n") {
		t.Errorf("attempts = %q", got)
	}
}

func TestEstimateCounter(t *testing.T) {
	c := EstimateCounter{}
	tests := []struct {
		text string
		want int
	}{
		{"", 0}, {"a", 1}, {"abc", 2}, {strings.Repeat("a", 27), 10}, {strings.Repeat("a", 28), 11},
		{strings.Repeat("漢", 9), 10}, // 27 bytes
	}
	for _, tt := range tests {
		if got := c.Count(tt.text); got != tt.want {
			t.Errorf("Count(%d bytes) = %d, want %d", len(tt.text), got, tt.want)
		}
	}
}

func TestKeepTail(t *testing.T) {
	tests := []struct {
		name    string
		counter TokenCounter
		text    string
		n       int
		want    string
	}{
		{"fits", EstimateCounter{}, "hello", 10, "hello"},
		{"estimate cut", EstimateCounter{}, strings.Repeat("a", 30) + "TAIL", 2, "aTAIL"},
		{"zero budget", EstimateCounter{}, "hello", 0, ""},
		{"negative budget", scaledCounter{1}, "hello", -3, ""},
		{"search cut", scaledCounter{2}, "0123456789", 6, "789"},
		{"search cut at rune start", scaledCounter{1}, "aé", 1, ""},
		{"search keeps whole runes", scaledCounter{1}, "aéb", 3, "éb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keepTail(tt.counter, tt.text, tt.n); got != tt.want {
				t.Errorf("keepTail = %q, want %q", got, tt.want)
			}
		})
	}
}

// Both cut paths keep the longest suffix within the budget, on rune starts.
func TestKeepTailPathsAgree(t *testing.T) {
	text := strings.Repeat("ab漢字 ", 40)
	for n := 0; n < 80; n += 7 {
		var c EstimateCounter
		fast := c.KeepTail(text, n)
		slow := ""
		if n > 0 {
			slow = searchTail(c, text, n, c.Count(text))
		}
		if fast != slow {
			t.Errorf("n=%d: KeepTail %q != search %q", n, fast, slow)
		}
		if !utf8.ValidString(fast) || c.Count(fast) > n || !strings.HasSuffix(text, fast) {
			t.Errorf("n=%d: bad cut %q", n, fast)
		}
	}
}

func TestFirstRunes(t *testing.T) {
	if got := firstRunes("héllo", 2); got != "hé" {
		t.Errorf("firstRunes = %q", got)
	}
	if got := firstRunes("hi", 5); got != "hi" {
		t.Errorf("firstRunes = %q", got)
	}
	if got := firstRunes("hi", 0); got != "" {
		t.Errorf("firstRunes = %q", got)
	}
}
