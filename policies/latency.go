package policies

import (
	"time"

	"github.com/toolhub/toolhub/llm"
)

// DefaultLatency is shown for an alias that has no measurement, no
// configured latency and no trained figure: about the median of the
// paper's latency column (8 s to 96 s), so the alias reads as an ordinary
// model, neither free nor slow.
const DefaultLatency = 15 * time.Second

// knownLatencies are the average latencies the paper's descriptions show
// for its pool (protocol §3.2 for the research roles, §4 for the experts),
// keyed by normalised model id (see normalizeModelID) and role. Training
// randomised these tables, so they are in distribution, not measurements of
// this machine.
var knownLatencies = map[string]map[string]time.Duration{
	"gpt-5":             {RoleSearch: 22 * time.Second, RoleReason: 31 * time.Second, RoleAnswer: 96 * time.Second, RoleExpert: 96 * time.Second},
	"gpt-5-mini":        {RoleSearch: 16 * time.Second, RoleReason: 25 * time.Second, RoleAnswer: 27 * time.Second, RoleExpert: 27 * time.Second},
	"qwen3-32b":         {RoleSearch: 8 * time.Second, RoleAnswer: 11 * time.Second, RoleExpert: 11 * time.Second},
	"qwen2.5-coder-32b": {RoleReason: 9 * time.Second},
	"llama-3.3-70b":     {RoleAnswer: 15 * time.Second},
	"qwen2.5-math-72b":  {RoleAnswer: 13 * time.Second},
	"qwen2.5-math-7b":   {RoleAnswer: 9 * time.Second},
}

// KnownLatency returns the latency the paper shows for a well-known model
// in a role (protocol §3.2, §4). Model ids match as in KnownPrice.
func KnownLatency(modelID, role string) (time.Duration, bool) {
	d, ok := knownLatencies[normalizeModelID(modelID)][role]
	return d, ok
}

// AliasLatency is the latency shown for model m serving role (protocol §6,
// the "average latency" column of §3.1 and §4): the measured moving average
// of m's successful calls for that role once there is one; before that the
// latency configured for m; else the paper's figure for a known model and
// role; else DefaultLatency. It is never 0, so no alias reads as instant.
func AliasLatency(m llm.ModelInfo, role string) time.Duration {
	if d := m.RoleLatency[role]; d > 0 {
		return d
	}
	if m.Latency > 0 {
		return m.Latency
	}
	if d, ok := KnownLatency(m.ModelID, role); ok {
		return d
	}
	return DefaultLatency
}
