package ui

import (
	"strings"
	"testing"
)

func TestDescribeHealth(t *testing.T) {
	cases := []struct {
		name    string
		health  OrchestratorHealth
		want    string
		notWant string
	}{
		{"unreachable", OrchestratorHealth{Model: "m", Detail: "no answer from x"}, "Orchestrator: unreachable (m) — no answer from x", "reachable ·"},
		{"loading", OrchestratorHealth{Reachable: true, Loading: true, Model: "m"}, "Orchestrator: loading the model… · m · runs wait", "reachable"},
		{"ready", OrchestratorHealth{Reachable: true, Model: "m", GPU: "RTX"}, "Orchestrator: reachable · m · GPU RTX", "loading"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := describeHealth(tc.health)
			if !strings.Contains(got, tc.want) || strings.Contains(got, tc.notWant) {
				t.Fatalf("describeHealth = %q, want %q and not %q", got, tc.want, tc.notWant)
			}
		})
	}
}
