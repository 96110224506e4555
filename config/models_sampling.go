package config

import (
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// SamplingModelID is the model id of a "sampling": true entry that names no
// model: the MCP client picks whichever model it runs.
const SamplingModelID = "mcp-client"

// samplingForbidden are the keys that make no sense for the client's own
// model: it has no URL or key here, and toolhub cannot know what the client
// pays for it, so its cost is unknown rather than priced.
var samplingForbidden = map[string]string{
	"baseUrl":   "the client's model is reached through MCP sampling, not a URL",
	"apiKeyEnv": "the client's model needs no API key from toolhub",
	"priceIn":   "the client's model's cost is unknown to toolhub and recorded as unknown, not priced",
	"priceOut":  "the client's model's cost is unknown to toolhub and recorded as unknown, not priced",
}

// finishSamplingEndpoint checks and completes a "sampling": true entry:
// "model" is optional (a hint for the client), locality defaults to remote
// (the client's model usually runs in the cloud) and the prices stay zero
// with Sampling set, which readers must treat as unknown.
func finishSamplingEndpoint(d decoder, off int, what string, set map[string]bool, ep *llm.ModelEndpoint) {
	for _, key := range []string{"baseUrl", "apiKeyEnv", "priceIn", "priceOut"} {
		if set[key] {
			d.at(off, "%s: %q cannot be combined with \"sampling\": true: %s", what, key, samplingForbidden[key])
		}
	}
	if ep.ModelID == "" {
		ep.ModelID = SamplingModelID
	}
	if !set["locality"] {
		ep.Locality = hub.LocalityRemote
	}
	ep.PriceIn, ep.PriceOut = 0, 0
	if ep.AnswerStyle == "" && ep.HasRole(policies.RoleAnswer) {
		ep.AnswerStyle = policies.StyleBoxed
	}
}
