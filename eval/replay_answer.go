package eval

// Where an answer's cost came from, best first.
const (
	CostRecorded = "recorded" // the row's cost_usd
	CostTokens   = "tokens"   // the row's token counts × the model's prices
	CostProxy    = "proxy"    // ProxyCostUSD
)

// AnswerCostUSD is what answering row with m cost: the recorded cost when
// the row has one, else its recorded tokens at m's prices (a missing output
// count taking the proxy's 256), else the proxy.
func AnswerCostUSD(m ReplayModel, row ReplayRow) (usd float64, source string) {
	if c, ok := row.CostUSD[m.Name]; ok {
		return c, CostRecorded
	}
	in, hasIn := row.TokensIn[m.Name]
	out, hasOut := row.TokensOut[m.Name]
	if !hasIn && !hasOut {
		return ProxyCostUSD(m, row.Question), CostProxy
	}
	if !hasIn {
		in = proxyTokensIn(row.Question)
	}
	if !hasOut {
		out = ProxyOutputTokens
	}
	return (m.PriceIn*in + m.PriceOut*out) / 1e6, CostTokens
}

// AnswerLatencySeconds is how long answering row with m took: the recorded
// latency, else the size model. ok is false when neither is known (the
// model's size is unknown): no latency is invented.
func AnswerLatencySeconds(m ReplayModel, row ReplayRow) (secs float64, ok bool) {
	if l, found := row.LatencyS[m.Name]; found {
		return l, true
	}
	if m.SizeB <= 0 {
		return 0, false
	}
	return ModelledLatencySeconds(m), true
}

// costSources counts, over the rows' answers by every model, where each
// cost came from.
func costSources(models []ReplayModel, rows []ReplayRow) map[string]int {
	out := map[string]int{}
	for _, r := range rows {
		for _, m := range models {
			_, src := AnswerCostUSD(m, r)
			out[src]++
		}
	}
	return out
}
