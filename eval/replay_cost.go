package eval

import "unicode/utf8"

// The replay set records no tokens and no latency; both are modelled.
const (
	// ProxyOutputTokens is the answer length the cost proxy assumes.
	ProxyOutputTokens = 256
	// proxyCharsPerToken turns a question's code points into input tokens.
	proxyCharsPerToken = 4
)

// ProxyCostUSD is the cost proxy of one query:
// (input_price × chars(question)/4 + output_price × 256) / 1e6, chars being
// Unicode code points.
func ProxyCostUSD(m ReplayModel, question string) float64 {
	return (m.PriceIn*proxyTokensIn(question) + m.PriceOut*ProxyOutputTokens) / 1e6
}

// proxyTokensIn estimates a question's input tokens as chars/4.
func proxyTokensIn(question string) float64 {
	return float64(utf8.RuneCountInString(question)) / proxyCharsPerToken
}

// Latency anchors: the per-alias averages the paper shows the orchestrator
// for a 7B model (9 s) and a 70B model (15 s).
const (
	smallModelB        = 7.0
	smallModelLatencyS = 9.0
	largeModelB        = 70.0
	largeModelLatencyS = 15.0
)

// ModelledLatencySeconds is the replay's latency model: linear in model
// size between the 7B and 70B anchors (clamped outside them). It is a model,
// not a measurement, and reports say so. Callers check the size is known
// (AnswerLatencySeconds does).
func ModelledLatencySeconds(m ReplayModel) float64 {
	size := min(max(m.SizeB, smallModelB), largeModelB)
	slope := (largeModelLatencyS - smallModelLatencyS) / (largeModelB - smallModelB)
	return smallModelLatencyS + slope*(size-smallModelB)
}

// LatencyModelNote describes ModelledLatencySeconds for reports.
const LatencyModelNote = "latency not recorded in the replay set is modelled linearly in model size " +
	"between the paper's per-alias averages (7B: 9 s, 70B: 15 s), and not past them (smaller: 9 s, larger: 15 s); " +
	"a model of unknown size has no latency"

// CostModelNote describes ProxyCostUSD for reports.
const CostModelNote = "cost not recorded in the replay set is the proxy (input price × chars/4 + output price × 256) / 1e6 USD per query"
