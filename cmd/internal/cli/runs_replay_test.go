package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/runlog"
)

// twoTurnScript is an orchestrator that first replies without a valid
// call (the turn is consumed and the prompt sent again), then calls answer.
func twoTurnScript() []scriptedmodel.Reply {
	return []scriptedmodel.Reply{
		scriptedmodel.RawTextReply("<think>\nnot sure yet\n</think>\n\nno call").WithUsage(900, 12),
		scriptedmodel.ToolCallReply("the expert knows", "answer", `{"model": "answer-1"}`).WithUsage(950, 20),
	}
}

// recordRun runs "2+2?" against a scripted orchestrator and expert and
// returns the config, the run and the orchestrator server.
func recordRun(t *testing.T) (cfg string, run conductor.Run, orch *scriptedmodel.Server) {
	t.Helper()
	orch = scriptedmodel.New(twoTurnScript()...)
	t.Cleanup(orch.Close)
	expert := scriptedmodel.New(scriptedmodel.RawTextReply(`\boxed{4}`).WithUsage(100, 5))
	expert.SetLoop(true)
	t.Cleanup(expert.Close)
	cfg = modelsConfig(t, orch, expert)
	code, stdout, stderr := runSub(t, newRunCommand, cfg, "--json", "2+2?")
	if code != 0 {
		t.Fatalf("run: exit %d %s", code, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &run); err != nil {
		t.Fatal(err)
	}
	return cfg, run, orch
}

// sameTrace compares what two runs did, step by step, bodies included,
// leaving out what differs between any two runs: times, and the completion
// ids the scripted expert numbers its replies with (it serves both runs).
func sameTrace(t *testing.T, got, want conductor.Run) {
	t.Helper()
	if got.Status != want.Status || got.Answer != want.Answer || len(got.Steps) != len(want.Steps) {
		t.Fatalf("replay %s %q with %d steps, original %s %q with %d", got.Status, got.Answer, len(got.Steps), want.Status, want.Answer, len(want.Steps))
	}
	for i := range want.Steps {
		g, w := got.Steps[i], want.Steps[i]
		g.Wall, w.Wall = 0, 0
		g.Reply, w.Reply = withoutID(t, g.Reply), withoutID(t, w.Reply)
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if !bytes.Equal(gj, wj) {
			t.Errorf("step %d:\nreplay   %s\noriginal %s", i, gj, wj)
		}
	}
}

// TestRunExportReplayRoundTrip records an episode, checks that its export
// holds the requests the model received, and replays its first request on a
// second scripted model with the same script: the same trace comes back.
func TestRunExportReplayRoundTrip(t *testing.T) {
	cfg, orig, orch := recordRun(t)
	code, stdout, stderr := runSub(t, newRunsCommand, cfg, "export", "--turns")
	if code != 0 {
		t.Fatalf("export: exit %d %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	received := orch.Requests()
	if len(lines) != 2 || len(received) != 2 {
		t.Fatalf("%d turns exported, %d requests received, want 2 and 2", len(lines), len(received))
	}
	for i, line := range lines {
		var tr runlog.Trajectory
		var req struct {
			Messages []json.RawMessage `json:"messages"`
			Tools    json.RawMessage   `json:"tools"`
		}
		if err := json.Unmarshal([]byte(line), &tr); err != nil || json.Unmarshal(received[i], &req) != nil {
			t.Fatalf("turn %d: %v", i+1, err)
		}
		if tr.Turn != i+1 || tr.Source != runlog.SourceBodies || len(tr.Messages) != len(req.Messages)+1 {
			t.Fatalf("turn %d: %+v", i+1, tr)
		}
		for j, m := range req.Messages {
			if !jsonEqual(t, tr.Messages[j], m) {
				t.Errorf("turn %d message %d: exported %s, the model received %s", i+1, j, tr.Messages[j], m)
			}
		}
		if !jsonEqual(t, tr.Tools, req.Tools) {
			t.Errorf("turn %d tools: exported %s, the model received %s", i+1, tr.Tools, req.Tools)
		}
	}

	again := scriptedmodel.New(twoTurnScript()...)
	defer again.Close()
	code, stdout, stderr = runSub(t, newRunsCommand, cfg, "replay", orig.ID, "--model", again.URL()+"/v1", "--json")
	if code != 0 {
		t.Fatalf("replay: exit %d %s", code, stderr)
	}
	var replay conductor.Run
	if err := json.Unmarshal([]byte(stdout), &replay); err != nil {
		t.Fatal(err)
	}
	if replay.ReplayOf != orig.ID || replay.ID == orig.ID {
		t.Fatalf("replay %s of %q, original %s", replay.ID, replay.ReplayOf, orig.ID)
	}
	resent := again.Requests()
	if len(resent) != 2 || !bytes.Equal(resent[0], received[0]) || !bytes.Equal(resent[1], received[1]) {
		t.Fatalf("the replay sent other requests:\n%s\nthan the original:\n%s", bytes.Join(resent, []byte("\n")), bytes.Join(received, []byte("\n")))
	}
	sameTrace(t, replay, orig)

	// The replay is stored, names its original, and exports like any run.
	// (Run ids order by the second they started in, so both are read.)
	code, stdout, _ = runSub(t, newRunsCommand, cfg, "export")
	found := false
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var tr runlog.Trajectory
		if err := json.Unmarshal([]byte(line), &tr); err != nil {
			t.Fatal(err)
		}
		found = found || (tr.ID == replay.ID && tr.ReplayOf == orig.ID && tr.Source == runlog.SourceBodies)
	}
	if code != 0 || !found {
		t.Fatalf("export lacks the replay: exit %d %s", code, stdout)
	}
}

func TestReplayWithAnotherModelID(t *testing.T) {
	cfg, orig, orch := recordRun(t)
	again := scriptedmodel.New(twoTurnScript()...)
	defer again.Close()
	code, stdout, stderr := runSub(t, newRunsCommand, cfg, "replay", orig.ID, "--model", again.URL()+"/v1", "--model-id", "orchestrator-v2")
	if code != 0 || !strings.Contains(stdout, "replay of "+orig.ID) || !strings.Contains(stdout, "answered") {
		t.Fatalf("replay: exit %d\n%s%s", code, stdout, stderr)
	}
	for i, body := range again.Requests() {
		var sent, recorded map[string]any
		if json.Unmarshal(body, &sent) != nil || json.Unmarshal(orch.Requests()[i], &recorded) != nil {
			t.Fatalf("request %d is not JSON", i)
		}
		if sent["model"] != "orchestrator-v2" {
			t.Errorf("request %d names model %v", i, sent["model"])
		}
		delete(sent, "model")
		delete(recorded, "model")
		if a, b := mustJSON(t, sent), mustJSON(t, recorded); a != b {
			t.Errorf("request %d differs beyond its model:\n%s\n%s", i, a, b)
		}
	}
}

func withoutID(t *testing.T, body []byte) []byte {
	t.Helper()
	if len(body) == 0 {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("reply body: %v", err)
	}
	delete(m, "id")
	return []byte(mustJSON(t, m))
}

func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return mustJSON(t, x) == mustJSON(t, y)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReplaySendsTheStoredRequest changes the stored first request: the
// replay sends the stored bytes, not what the policy renders, and says so.
func TestReplaySendsTheStoredRequest(t *testing.T) {
	cfg, orig, _ := recordRun(t)
	var stored []byte
	if err := withRunLog(func(log *runlog.RunLog) error {
		run, err := log.Get(orig.ID)
		if err != nil {
			return err
		}
		run.Steps[0].Request = bytes.Replace(run.Steps[0].Request, []byte("2+2?"), []byte("3+3?"), 1)
		stored = run.Steps[0].Request
		return log.Put(run)
	}); err != nil {
		t.Fatal(err)
	}
	again := scriptedmodel.New(twoTurnScript()...)
	defer again.Close()
	code, stdout, stderr := runSub(t, newRunsCommand, cfg, "replay", orig.ID, "--model", again.URL()+"/v1", "--json")
	if code != 0 {
		t.Fatalf("replay: exit %d %s", code, stderr)
	}
	var replay conductor.Run
	if err := json.Unmarshal([]byte(stdout), &replay); err != nil {
		t.Fatal(err)
	}
	if sent := again.Requests(); len(sent) == 0 || !bytes.Equal(sent[0], stored) || !bytes.Contains(stored, []byte("3+3?")) {
		t.Fatalf("first request sent %s, stored %s", sent, stored)
	}
	noted := false
	for _, s := range replay.Steps {
		noted = noted || (s.Kind == conductor.StepObservation && strings.Contains(s.Text, "differs from the one the policy renders"))
	}
	if !noted {
		t.Fatalf("the changed request was not noted: %+v", replay.Steps)
	}
}

// FuzzReplayRewrite feeds stored first requests of any shape to the model
// rewrite: it never panics, and a JSON object it rewrites names the new
// model and stays JSON.
func FuzzReplayRewrite(f *testing.F) {
	f.Add([]byte(`{"model":"a","messages":[{"role":"user","content":"q"}]}`), "b")
	f.Add([]byte(`{"messages":[]}`), "")
	f.Add([]byte(`[1,2]`), "m")
	f.Fuzz(func(t *testing.T, body []byte, id string) {
		if !utf8.ValidString(id) {
			return // check refuses such a --model-id
		}
		target := replayTarget{ModelID: id}
		out, err := target.rewrite(body)
		if err != nil || id == "" {
			return
		}
		var got struct {
			Model string `json:"model"`
		}
		if json.Valid(body) && isJSONObject(body) && (json.Unmarshal(out, &got) != nil || got.Model != id) {
			t.Fatalf("rewrite of %s to %q gave %s", body, id, out)
		}
	})
}

func isJSONObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{'
}
