package conductor

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/tidwall/sjson"

	"github.com/toolhub/toolhub/llm"
)

// DefaultExpectedOutputTokens is the completion size the budget check
// assumes for a request that sets no max_tokens.
const DefaultExpectedOutputTokens = 1024

// MinReplyTokens is the smallest completion limit the budget lets a model
// request keep: room for a short think block and a tool call. A request
// whose prompt and MinReplyTokens the remaining budget cannot pay for is
// refused.
const MinReplyTokens = 256

// completionLimits is the part of a request body the budget reads.
type completionLimits struct {
	MaxTokens           *int `json:"max_tokens"`
	MaxCompletionTokens *int `json:"max_completion_tokens"`
}

func readLimits(body []byte) completionLimits {
	var l completionLimits
	_ = json.Unmarshal(body, &l)
	return l
}

// expectedTokens estimates a request's prompt tokens from its size and its
// completion tokens from its max_tokens, for the check before the call
// (protocol §6: the cost of a call is prompt and completion tokens at the
// endpoint's prices).
func expectedTokens(body []byte) (in, out int) {
	l := readLimits(body)
	if l.MaxTokens != nil {
		out = *l.MaxTokens
	}
	if l.MaxCompletionTokens != nil {
		out = max(out, *l.MaxCompletionTokens)
	}
	if out <= 0 {
		out = DefaultExpectedOutputTokens
	}
	return (len(body) + llm.CharsPerToken - 1) / llm.CharsPerToken, out
}

// admitModel checks a model request before it is sent and returns the body
// to send (protocol §6, §3.6 step 7). When the request's completion limit
// would take the spend past the budget, the limit is lowered to what the
// rest of the budget pays for, so a cheap turn is not refused for the
// 8,000 or 12,000 tokens it may use; the request is refused, ending the
// episode, only when even its prompt and MinReplyTokens cannot be paid.
func (ep *episode) admitModel(info llm.ModelInfo, body []byte) ([]byte, error) {
	what := "model " + info.Name
	in, out := expectedTokens(body)
	spent, err := ep.spentSoFar()
	if err != nil || ep.budget <= 0 || spent+info.CostUSD(in, out) <= ep.budget {
		return body, err
	}
	fit := affordableTokens(info, in, ep.budget-spent)
	if fit < MinReplyTokens {
		reason := fmt.Sprintf("budget: %s would cost about %s even with a %d-token reply, with %s of the %s budget spent",
			what, usd(info.CostUSD(in, MinReplyTokens)), MinReplyTokens, usd(spent), usd(ep.budget))
		ep.halt(RunBudgetExhausted, reason, true)
		return nil, &LimitError{Status: RunBudgetExhausted, Reason: reason}
	}
	clamped, err := withCompletionLimit(body, fit)
	if err != nil {
		return nil, fmt.Errorf("lower the completion limit of %s: %w", what, err)
	}
	ep.observe(fmt.Sprintf("budget: max_tokens of %s lowered from %d to %d, what the %s left of the %s budget pays for",
		what, out, fit, usd(ep.budget-spent), usd(ep.budget)))
	return clamped, nil
}

// affordableTokens is how many completion tokens remaining USD pays for
// once the prompt of in tokens is paid, at the endpoint's prices per 1M
// tokens (protocol §6); 0 when the prompt alone is too dear.
func affordableTokens(info llm.ModelInfo, in int, remaining float64) int {
	left := remaining - info.CostUSD(in, 0)
	if left < 0 {
		return 0
	}
	perToken := info.PriceOut / 1e6
	if perToken <= 0 {
		return math.MaxInt32
	}
	// The tiny margin keeps float error from costing a whole token.
	return int(math.Min(math.Floor(left/perToken+1e-6), math.MaxInt32))
}

// withCompletionLimit sets the body's completion limit to n (protocol §1:
// the client sends max_tokens on every call): max_tokens and
// max_completion_tokens where present, max_tokens when neither is. Every
// other byte of the body stays as the policy rendered it.
func withCompletionLimit(body []byte, n int) ([]byte, error) {
	l := readLimits(body)
	var err error
	if l.MaxCompletionTokens != nil {
		if body, err = sjson.SetBytes(body, "max_completion_tokens", n); err != nil {
			return nil, err
		}
	}
	if l.MaxTokens != nil || l.MaxCompletionTokens == nil {
		if body, err = sjson.SetBytes(body, "max_tokens", n); err != nil {
			return nil, err
		}
	}
	return body, nil
}

// admit checks a tool call before it is made: refused once a limit ended
// the episode, and refused (ending the episode) when its cost per call
// would take the spend past the budget (protocol §6, §3.6 step 7).
func (ep *episode) admit(expectedUSD float64, what string) error {
	spent, err := ep.spentSoFar()
	if err != nil || ep.budget <= 0 || spent+expectedUSD <= ep.budget {
		return err
	}
	reason := fmt.Sprintf("budget: %s would cost about %s with %s of the %s budget spent",
		what, usd(expectedUSD), usd(spent), usd(ep.budget))
	ep.halt(RunBudgetExhausted, reason, true)
	return &LimitError{Status: RunBudgetExhausted, Reason: reason}
}

// spentSoFar returns the spend, or the limit that already ended the
// episode: a call after it is refused (protocol §3.6 step 7).
func (ep *episode) spentSoFar() (float64, error) {
	ep.mu.Lock()
	stop, spent := ep.stop, ep.run.Totals.USD
	ep.mu.Unlock()
	if stop != nil {
		ep.halt(stop.status, stop.reason, true)
		return spent, &LimitError{Status: stop.status, Reason: stop.reason}
	}
	return spent, nil
}

// settle ends the episode once the real spend, from the reply's usage
// (protocol §6), reaches the budget.
func (ep *episode) settle() {
	ep.mu.Lock()
	spent := ep.run.Totals.USD
	ep.mu.Unlock()
	if ep.budget > 0 && spent >= ep.budget {
		ep.halt(RunBudgetExhausted, fmt.Sprintf("budget: %s of the %s budget is spent", usd(spent), usd(ep.budget)), false)
	}
}

// usd renders an amount for messages: "$0.02", rounded to 1e-8 so that
// float sums print as people write them.
func usd(v float64) string {
	return "$" + strconv.FormatFloat(math.Round(v*1e8)/1e8, 'f', -1, 64)
}
