package daemon

import (
	"log/slog"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/tools"
)

// searchCostUSD is what one query costs at the providers' list prices
// (Tavily: one credit, $0.01 per basic search as the orchestrator protocol
// notes; Brave: $5 per 1,000 queries), for budgets and reports.
var searchCostUSD = map[string]float64{config.ProviderTavily: 0.01, config.ProviderBrave: 0.005}

// webSearchSpec puts web_search in the hub as a remote in-process server,
// only when the section exists and its key variable is set.
func webSearchSpec(cfg *config.WebSearch, lookupEnv func(string) (string, bool), log *slog.Logger) (hub.ServerSpec, bool) {
	if cfg == nil {
		return hub.ServerSpec{}, false
	}
	key, _ := lookupEnv(cfg.APIKeyEnv)
	if key == "" {
		log.Info("web_search is not offered: its key variable is not set", "variable", cfg.APIKeyEnv)
		return hub.ServerSpec{}, false
	}
	w, err := tools.NewWebSearch(tools.WebSearchOptions{
		Provider: cfg.Provider, APIKey: key, MaxResults: cfg.MaxResults, Timeout: cfg.Timeout,
	})
	if err != nil {
		log.Warn("web_search is not offered", "reason", err)
		return hub.ServerSpec{}, false
	}
	spec := builtinSpec(tools.WebSearchServerName, w.Server(), hub.LocalityRemote,
		max(cfg.Timeout, tools.DefaultSearchTimeout)+callSlack)
	spec.CostPerCall = searchCostUSD[cfg.Provider]
	return spec, true
}
