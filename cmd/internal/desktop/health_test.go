package desktop

import (
	"context"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
)

// TestOrchestratorHealthTellsLoadingFromReady: a model server whose
// /v1/models answers while /health still says 503 "Loading model" (as
// llama.cpp does) is loading, not ready; a closed one is unreachable.
func TestOrchestratorHealthTellsLoadingFromReady(t *testing.T) {
	cases := []struct {
		name                   string
		loading, closed        bool
		reachable, wantLoading bool
		detail                 string
	}{
		{"ready", false, false, true, false, "remote"},
		{"loading", true, false, true, true, ""},
		{"closed", false, true, false, false, "no answer from"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := scriptedmodel.New()
			t.Cleanup(s.Close)
			s.SetLoading(tc.loading)
			if tc.closed {
				s.Close()
			}
			b := &Backend{}
			b.models.Store(&config.Models{Orchestrator: llm.ModelEndpoint{
				Name: "orch", BaseURL: s.URL() + "/v1", ModelID: "Orchestrator-8B", Locality: hub.LocalityRemote}})
			h := b.OrchestratorHealth(context.Background())
			if h.Reachable != tc.reachable || h.Loading != tc.wantLoading || !strings.Contains(h.Detail, tc.detail) {
				t.Fatalf("health %+v, want reachable %v loading %v detail %q", h, tc.reachable, tc.wantLoading, tc.detail)
			}
		})
	}
}
