package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolhub/toolhub/llm"
)

// Completer sends one chat-completions body to a model; *hub.Model is one.
type Completer interface {
	Complete(ctx context.Context, body []byte) (*llm.ModelReply, error)
}

// Judge grades free-form answers with an LLM, as the paper's evaluation
// does after exact match fails: the judge replies <correct>True</correct> or
// <correct>False</correct>, and answers over 500 words count as wrong.
type Judge struct {
	Model   Completer
	ModelID string        // the "model" field of the request
	Timeout time.Duration // per call; DefaultJudgeTimeout when zero
}

// DefaultJudgeTimeout bounds one judge call.
const DefaultJudgeTimeout = 2 * time.Minute

// MaxJudgedWords is the answer length beyond which an answer is wrong.
const MaxJudgedWords = 500

// JudgePrompt asks whether response answers question the way the known
// answer does, in the <correct> format of the paper's judge.
func JudgePrompt(question, answer, response string) string {
	return "Judge whether the following [response] to [question] is correct or not based on the precise and " +
		"unambiguous [correct_answer] below.\n\n" +
		"[question]: " + question + "\n\n" +
		"[response]: " + response + "\n\n" +
		"[correct_answer]: " + answer + "\n\n" +
		"Focus only on whether the final answer in [response] matches [correct_answer]. Ignore differences in " +
		"formatting, and accept small rounding differences for numerical answers. Do not solve the problem " +
		"again and do not comment on the reasoning. If the final answer is equivalent to [correct_answer], " +
		"reply <correct>True</correct>; if it differs, is ambiguous, or is missing, reply " +
		"<correct>False</correct>. Reply with nothing else."
}

// Grade asks the judge about answer.
func (j *Judge) Grade(ctx context.Context, t Task, answer string) (Grade, error) {
	if len(strings.Fields(answer)) > MaxJudgedWords || strings.TrimSpace(answer) == "" {
		return Grade{Score: 0, Method: MethodJudge}, nil
	}
	body, err := json.Marshal(map[string]any{
		"model":       j.ModelID,
		"temperature": 0,
		"messages":    []map[string]string{{"role": "user", "content": JudgePrompt(t.Question, t.Answer, answer)}},
	})
	if err != nil {
		return Grade{}, fmt.Errorf("encode judge request: %w", err)
	}
	timeout := j.Timeout
	if timeout == 0 {
		timeout = DefaultJudgeTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	reply, err := j.Model.Complete(ctx, body)
	if err != nil {
		return Grade{}, fmt.Errorf("judge task %s: %w", t.ID, err)
	}
	verdict, ok := ParseVerdict(reply.Content)
	if !ok {
		return Grade{}, fmt.Errorf("judge task %s: no <correct> verdict in %q", t.ID, firstChars(reply.Content, 200))
	}
	return Grade{Score: boolScore(verdict), Method: MethodJudge}, nil
}

// ParseVerdict reads the last <correct>True|False</correct> in a reply.
func ParseVerdict(reply string) (correct, ok bool) {
	i := strings.LastIndex(reply, "<correct>")
	if i < 0 {
		return false, false
	}
	rest := reply[i+len("<correct>"):]
	end := strings.Index(rest, "</correct>")
	if end < 0 {
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(rest[:end])) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

func firstChars(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
