package desktop

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/ui"
)

// keyedModels serves /v1/models only to a request carrying key.
func keyedModels(t *testing.T, key string) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{"data": [{"id": "m"}]}`))
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/v1"
}

// Every model row says what its endpoint's last probe found: ready in
// green, loading in amber, unreachable or refusing the key in red with the
// reason in words.
func TestModelRowsShowTheirHealth(t *testing.T) {
	t.Setenv("TOOLHUB_TEST_MODEL_KEY", "sesame")
	cases := []struct {
		name    string
		ep      func(t *testing.T) llm.ModelEndpoint
		health  ui.Health
		state   string
		problem string
	}{
		{"ready", func(t *testing.T) llm.ModelEndpoint { return scripted(t, false) }, ui.HealthOK, "orchestrator, ready", ""},
		{"loading", func(t *testing.T) llm.ModelEndpoint { return scripted(t, true) }, ui.HealthBusy, "orchestrator, loading the model", ""},
		{"down", func(*testing.T) llm.ModelEndpoint { return unreachable() }, ui.HealthFailed, "orchestrator, unreachable", "Nothing answers at"},
		{"key sent", func(t *testing.T) llm.ModelEndpoint {
			return llm.ModelEndpoint{Name: "orch", BaseURL: keyedModels(t, "sesame"), ModelID: "m", APIKeyEnv: "TOOLHUB_TEST_MODEL_KEY"}
		}, ui.HealthOK, "orchestrator, ready", ""},
		{"key missing", func(t *testing.T) llm.ModelEndpoint {
			return llm.ModelEndpoint{Name: "orch", BaseURL: keyedModels(t, "sesame"), ModelID: "m", APIKeyEnv: "TOOLHUB_TEST_UNSET_KEY"}
		}, ui.HealthFailed, "orchestrator, unreachable", "TOOLHUB_TEST_UNSET_KEY is not set"},
		{"sampling", func(*testing.T) llm.ModelEndpoint {
			return llm.ModelEndpoint{Name: "orch", ModelID: "m", Sampling: true}
		}, ui.HealthOK, "orchestrator, served by the calling client's model", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := &Backend{watch: newModelWatch()}
			b.models.Store(&config.Models{Orchestrator: tc.ep(t)})
			if rows := b.modelInfos(); rows[0].Health != ui.HealthUnknown || rows[0].State != "orchestrator, checking…" {
				t.Fatalf("before the first probe: %+v", rows[0])
			}
			if changed, _ := b.watch.probeAll(context.Background(), b.modelEndpoints()); !changed {
				t.Fatal("the first probe changed nothing")
			}
			row := b.modelInfos()[0]
			if row.Health != tc.health || row.State != tc.state {
				t.Fatalf("row %+v, want health %v state %q", row, tc.health, tc.state)
			}
			got := ""
			if row.Problem != nil {
				got = row.Problem.Summary
			}
			if (tc.problem == "") != (got == "") || !strings.Contains(got, tc.problem) {
				t.Fatalf("problem %q, want %q", got, tc.problem)
			}
			if changed, _ := b.watch.probeAll(context.Background(), b.modelEndpoints()); changed {
				t.Fatal("a second probe finding the same reported a change")
			}
		})
	}
}

func scripted(t *testing.T, loading bool) llm.ModelEndpoint {
	s := scriptedmodel.New()
	t.Cleanup(s.Close)
	s.SetLoading(loading)
	return llm.ModelEndpoint{Name: "orch", BaseURL: s.URL() + "/v1", ModelID: "m", Locality: hub.LocalityRemote}
}

// unreachable is an endpoint nothing answers: port 9 (discard), where no
// server of these tests listens. A server's port just closed would not do:
// another test's server, started meanwhile, may be given it and answer.
func unreachable() llm.ModelEndpoint {
	return llm.ModelEndpoint{Name: "orch", BaseURL: "http://127.0.0.1:9/v1", ModelID: "m", Locality: hub.LocalityRemote}
}

// In the window, the orchestrator's row is amber while its server loads
// the model and turns green by itself once the model is loaded.
func TestModelRowTurnsGreenOnceLoaded(t *testing.T) {
	orch := scriptedmodel.New()
	defer orch.Close()
	orch.SetLoading(true)
	e := newEnv(t, orch)
	row := func() *ui.ServerRow { return e.desk.Servers.Rows[config.DefaultOrchestratorName] }
	e.waitFor("the loading row", func() bool {
		return row() != nil && strings.Contains(row().Title.Text, "loading the model")
	})
	orch.SetLoading(false)
	e.waitFor("the ready row", func() bool { return strings.Contains(row().Title.Text, "orchestrator, ready") })
}
