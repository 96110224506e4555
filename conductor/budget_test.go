package conductor

import (
	"context"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// A model request whose max_tokens the budget cannot pay for in full is
// sent with the limit lowered to what the rest of the budget pays for; it
// is refused only when even MinReplyTokens cannot be paid.
func TestBudgetLowersCompletionLimit(t *testing.T) {
	const body = `{"model":"x","messages":[{"role":"user","content":"hi"}],"max_tokens":8000,"temperature":0}`
	cases := []struct {
		name    string
		body    string
		budget  float64
		priceIn float64
		status  RunStatus
		sent    string // the body the server received; "" when none
		errPart string
	}{
		// $1 per 1M output tokens: 8,000 tokens would cost $0.008.
		{name: "fits", body: body, budget: 0.01, status: RunAnswered, sent: body},
		{name: "lowered", body: body, budget: 0.005, status: RunAnswered,
			sent: strings.Replace(body, `"max_tokens":8000`, `"max_tokens":5000`, 1)},
		// The prompt, 91 bytes or about 31 tokens, is paid first: $0.00155.
		{name: "lowered after the prompt", body: body, budget: 0.005, priceIn: 50, status: RunAnswered,
			sent: strings.Replace(body, `"max_tokens":8000`, `"max_tokens":3450`, 1)},
		{name: "prompt alone too dear", body: body, budget: 0.005, priceIn: 1000, status: RunBudgetExhausted,
			errPart: "with $0 of the $0.005 budget spent"},
		{name: "max_completion_tokens", body: `{"model":"x","max_completion_tokens":8000}`, budget: 0.001, status: RunAnswered,
			sent: `{"model":"x","max_completion_tokens":1000}`},
		{name: "no limit set", body: `{"model":"x"}`, budget: 0.0005, status: RunAnswered,
			sent: `{"model":"x","max_tokens":500}`},
		{name: "not even a short reply", body: body, budget: 0.0002, status: RunBudgetExhausted,
			errPart: "even with a 256-token reply, with $0 of the $0.0002 budget spent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			chat := startChat(t)
			models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "m", BaseURL: chat.URL() + "/v1", ModelID: "x",
				Locality: hub.LocalityLocal, PriceIn: tc.priceIn, PriceOut: 1}}, llm.ModelOptions{})
			if err != nil {
				t.Fatal(err)
			}
			eps, err := NewEpisodes(EpisodesConfig{Tools: newFakeTools(hub.ServerMeta{Name: "s"}), Models: models})
			if err != nil {
				t.Fatal(err)
			}
			policy := &scriptPolicy{turns: [][]Action{{modelAct(ModelCall{Endpoint: "m", Body: []byte(tc.body)}), answerAct("done")}}}
			run, err := eps.Run(context.Background(), Task{Text: "t", BudgetUSD: tc.budget}, policy)
			if err != nil {
				t.Fatal(err)
			}
			reqs := chat.Requests()
			if run.Status != tc.status {
				t.Fatalf("status %s (%s), want %s", run.Status, run.Error, tc.status)
			}
			switch {
			case tc.sent == "" && len(reqs) != 0:
				t.Fatalf("sent %s, want nothing sent", reqs[0])
			case tc.sent != "" && (len(reqs) != 1 || string(reqs[0]) != tc.sent):
				t.Fatalf("sent %q\nwant %q", reqs, tc.sent)
			}
			if tc.errPart != "" && !strings.Contains(run.Error, tc.errPart) {
				t.Fatalf("error %q, want it to hold %q", run.Error, tc.errPart)
			}
			if run.Status == RunAnswered && run.Totals.USD > tc.budget {
				t.Fatalf("spent %v of a %v budget", run.Totals.USD, tc.budget)
			}
		})
	}
}
