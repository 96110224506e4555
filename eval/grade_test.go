package eval

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/llm"
)

func TestGradeNormalize(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"case and articles", "The Eiffel Tower", "eiffel tower"},
		{"punctuation", "Paris, France!", "paris france"},
		{"whitespace", "  new\t york \n city ", "new york city"},
		{"article inside a word kept", "Theatre of an anthem", "theatre of anthem"},
		{"decimal point kept", "3.5", "3.5"},
		{"thousands comma kept", "1,000 people.", "1,000 people"},
		{"quotes and dashes", `"well-known"`, "well known"},
		{"unicode letters", "Ångström", "ångström"},
		{"only punctuation", "?!", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Normalize(tc.in); got != tc.want {
				t.Fatalf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestGradeParseNumber(t *testing.T) {
	cases := []struct {
		name, in string
		want     Number
		ok       bool
	}{
		{"integer", "42", Number{Value: 42}, true},
		{"thousands", "1,000", Number{Value: 1000}, true},
		{"millions", "12,345,678.5", Number{Value: 12345678.5}, true},
		{"dollars", "$3.50", Number{Value: 3.5}, true},
		{"negative dollars", "-$3.50", Number{Value: -3.5}, true},
		{"unicode minus", "−7", Number{Value: -7}, true},
		{"percent", "50%", Number{Value: 50, Unit: "%"}, true},
		{"exponent", "3.0e2", Number{Value: 300}, true},
		{"negative exponent", "2.5E-3", Number{Value: 0.0025}, true},
		{"unit", "12 km", Number{Value: 12, Unit: "km"}, true},
		{"unit glued", "12km", Number{Value: 12, Unit: "km"}, true},
		{"two-word unit", "3 square metres", Number{Value: 3, Unit: "square metres"}, true},
		{"degrees", "90°", Number{Value: 90, Unit: "°"}, true},
		{"fraction", "1/2", Number{Value: 0.5}, true},
		{"trailing full stop", "42.", Number{Value: 42}, true},
		{"leading dot", ".5", Number{Value: 0.5}, true},
		{"bad thousands grouping", "1,00", Number{}, false},
		{"prose", "about forty", Number{}, false},
		{"two numbers", "3 4", Number{}, false},
		{"division by zero", "1/0", Number{}, false},
		{"overflow", "1e999", Number{}, false},
		{"empty", "", Number{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseNumber(tc.in)
			if ok != tc.ok || (ok && (!closeEnough(got.Value, tc.want.Value, 1e-12) || got.Unit != tc.want.Unit)) {
				t.Fatalf("ParseNumber(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestGradeNumericMatch(t *testing.T) {
	cases := []struct {
		name, want, got string
		match           bool
	}{
		{"same", "1000", "1,000", true},
		{"currency", "3.5", "$3.50", true},
		{"exponent", "300", "3.0e2", true},
		{"unit on one side", "12", "12 km", true},
		{"unit on the other side", "12 km", "12", true},
		{"different units", "12 km", "12 mi", false},
		{"percent as fraction", "50%", "0.5", true},
		{"fraction as percent", "0.5", "50%", true},
		{"percent as number", "50%", "50", true},
		{"within tolerance", "0.3333333", "0.33333331", true},
		{"outside tolerance", "0.3333", "0.3334", false},
		{"number in a sentence", "42", "The answer is 42.", true},
		{"last number counts", "42", "Between 10 and 42", true},
		{"wrong number in a sentence", "42", "I think 41.", false},
		{"sign matters", "-5", "5", false},
		{"zero", "0", "0.0", true},
		{"no number", "42", "forty-two", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := NumericMatch(tc.want, tc.got, DefaultTolerance); got != tc.match {
				t.Fatalf("NumericMatch(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.match)
			}
		})
	}
}

// fakeJudge replies with a fixed verdict and records the prompts it saw.
type fakeJudge struct {
	reply   string
	err     error
	prompts []string
}

func (f *fakeJudge) Complete(_ context.Context, body []byte) (*llm.ModelReply, error) {
	f.prompts = append(f.prompts, string(body))
	if f.err != nil {
		return nil, f.err
	}
	return &llm.ModelReply{Content: f.reply}, nil
}

func TestGradeAutoAndJudge(t *testing.T) {
	task := Task{ID: "t1", Question: "Who wrote Hamlet?", Answer: "William Shakespeare"}
	num := Task{ID: "t2", Question: "2+2?", Answer: "4"}
	cases := []struct {
		name   string
		grader Grader
		task   Task
		answer string
		want   Grade
	}{
		{"exact after normalising", Grader{}, task, "william shakespeare.", Grade{1, MethodExact}},
		{"numeric answer", Grader{}, num, "4.0", Grade{1, MethodNumeric}},
		{"numeric over 500 words is wrong", Grader{}, num, strings.Repeat("word ", 500) + "so 4", Grade{0, MethodNumeric}},
		{"numeric at the end of a short text", Grader{}, num, "two and two make 4", Grade{1, MethodNumeric}},
		{"numeric wrong, judge not asked", Grader{Judge: &Judge{Model: &fakeJudge{reply: "<correct>True</correct>"}}}, num, "5", Grade{0, MethodNumeric}},
		{"no judge: wrong", Grader{}, task, "Shakespeare", Grade{0, MethodExact}},
		{"judge accepts", Grader{Judge: &Judge{Model: &fakeJudge{reply: "<correct>True</correct>"}}}, task, "Shakespeare", Grade{1, MethodJudge}},
		{"judge rejects", Grader{Judge: &Judge{Model: &fakeJudge{reply: "ok <correct> False </correct>"}}}, task, "Marlowe", Grade{0, MethodJudge}},
		{"over 500 words is wrong", Grader{Judge: &Judge{Model: &fakeJudge{reply: "<correct>True</correct>"}}}, task, strings.Repeat("word ", 501), Grade{0, MethodJudge}},
		{"exact only", Grader{Method: MethodExact}, num, "4.0", Grade{0, MethodExact}},
		{"numeric only", Grader{Method: MethodNumeric}, num, "four", Grade{0, MethodNumeric}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.grader.Grade(context.Background(), tc.task, tc.answer)
			if err != nil || got != tc.want {
				t.Fatalf("grade %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestGradeJudgeSendsThePromptAndReportsFailures(t *testing.T) {
	task := Task{ID: "t1", Question: "Who wrote Hamlet?", Answer: "William Shakespeare"}
	f := &fakeJudge{reply: "<correct>True</correct>"}
	if _, err := (Grader{Method: MethodJudge, Judge: &Judge{Model: f, ModelID: "judge-1"}}).Grade(context.Background(), task, "Shakespeare"); err != nil {
		t.Fatal(err)
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct{ Role, Content string }
	}
	if len(f.prompts) != 1 || json.Unmarshal([]byte(f.prompts[0]), &req) != nil || len(req.Messages) != 1 {
		t.Fatalf("judge request %q", f.prompts)
	}
	if req.Model != "judge-1" || req.Messages[0].Content != JudgePrompt(task.Question, task.Answer, "Shakespeare") ||
		!strings.Contains(req.Messages[0].Content, "[correct_answer]: William Shakespeare") {
		t.Fatalf("judge request %+v", req)
	}
	for name, j := range map[string]*fakeJudge{"no verdict": {reply: "yes"}, "transport": {err: errors.New("refused")}} {
		if _, err := (&Judge{Model: j}).Grade(context.Background(), task, "Shakespeare"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := (Grader{Method: MethodJudge}).Grade(context.Background(), task, "x"); err == nil {
		t.Error("judge grading without a judge accepted")
	}
}
