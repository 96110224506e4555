package eval

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/toolhub/toolhub/conductor"
)

// fakeRunner answers each task correctly under policy "good" and wrongly
// under any other, with one answer-model call costing usd. After blockAfter
// episodes (0: never) it blocks until its context ends.
type fakeRunner struct {
	mu         sync.Mutex
	answers    map[string]string // question → correct answer
	calls      []string
	blockAfter int
}

func newFakeRunner(tasks []Task) *fakeRunner {
	r := &fakeRunner{answers: map[string]string{}}
	for _, t := range tasks {
		r.answers[t.Question] = t.Answer
	}
	return r
}

func (r *fakeRunner) Run(ctx context.Context, task conductor.Task, policy string) (*conductor.Run, error) {
	r.mu.Lock()
	r.calls = append(r.calls, task.Text+"|"+policy)
	n := len(r.calls)
	r.mu.Unlock()
	if r.blockAfter > 0 && n > r.blockAfter {
		<-ctx.Done()
		return &conductor.Run{Status: conductor.RunCancelled}, ctx.Err()
	}
	answer, usd := "wrong", 0.01
	if policy == "good" {
		answer, usd = r.answers[task.Text], 0.03
	}
	return &conductor.Run{ID: fmt.Sprintf("run-%d", n), Task: task.Text, Policy: policy, Status: conductor.RunAnswered, Answer: answer,
		Steps:  []conductor.Step{{Kind: conductor.StepModel, Alias: "answer-1", USD: usd}},
		Totals: conductor.Totals{USD: usd, Wall: 2 * time.Second, ModelCalls: 1}}, nil
}

func (r *fakeRunner) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

// memStore is a RunStore in memory.
type memStore struct {
	mu   sync.Mutex
	runs map[string]*conductor.Run
}

func (s *memStore) Put(run *conductor.Run) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs[run.ID] = run
	return nil
}

func liveTasks(n int) []Task {
	tasks := make([]Task, n)
	for i := range tasks {
		tasks[i] = Task{ID: fmt.Sprintf("t%d", i), Question: fmt.Sprintf("question %d", i), Answer: fmt.Sprint(i * 10)}
	}
	return tasks
}

func TestEvalLiveRunsGradesStoresAndReports(t *testing.T) {
	tasks := liveTasks(4)
	runner := newFakeRunner(tasks)
	journal, done, err := OpenJournal(filepath.Join(t.TempDir(), "j.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer journal.Close()
	store := &memStore{runs: map[string]*conductor.Run{}}
	var progress []Progress
	entries, err := RunLive(context.Background(), runner, LiveOptions{Tasks: tasks, Policies: []string{"bad", "good"},
		Repeat: 2, Parallel: 3, Store: store, Journal: journal, Done: done,
		Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 16 || runner.count() != 16 || len(store.runs) != 16 {
		t.Fatalf("entries %d runs %d stored %d, want 16", len(entries), runner.count(), len(store.runs))
	}
	last := progress[len(progress)-1]
	if last.Done != 16 || last.Total != 16 || last.Accuracy != 0.5 || !closeEnough(last.SpendUSD, 8*0.01+8*0.03, 1e-9) {
		t.Fatalf("last progress %+v", last)
	}
	rep := LiveReport("tasks.jsonl", entries, []string{"bad", "good"}, "bad", DefaultPreference)
	good, _ := rep.Find("good")
	bad, _ := rep.Find("bad")
	if good.Accuracy != 1 || bad.Accuracy != 0 || good.Calls["answer-1"] != 1 || good.LatencyS != 2 || !closeEnough(good.CostUSD, 0.03, 1e-9) {
		t.Fatalf("good %+v bad %+v", good, bad)
	}
	// Appendix L against "bad" (0 solved): outcome 1/max(1,0) = 1, cost
	// 1¢/max(1, 3¢) = 1/3, latency (2/60)/max(1, 2/60) = 1/30.
	if want := 1 + 1.0/3 + 1.0/30; !closeEnough(good.Reward, want, 1e-9) || bad.Reward != 0 {
		t.Fatalf("rewards good %v (want %v) bad %v", good.Reward, want, bad.Reward)
	}
}

func TestEvalLiveCancelledEpisodeIsNotJournaled(t *testing.T) {
	tasks := liveTasks(3)
	runner := newFakeRunner(tasks)
	runner.blockAfter = 1
	path := filepath.Join(t.TempDir(), "j.jsonl")
	journal, _, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for runner.count() < 2 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	entries, err := RunLive(ctx, runner, LiveOptions{Tasks: tasks, Policies: []string{"good"}, Journal: journal})
	journal.Close()
	if !errors.Is(err, context.Canceled) || len(entries) != 1 {
		t.Fatalf("entries %d err %v; want 1 and context.Canceled", len(entries), err)
	}
	done, err := readJournal(path)
	if err != nil || len(done) != 1 {
		t.Fatalf("journal holds %d entries (%v), want 1", len(done), err)
	}
}

func TestEvalLiveResultsCoverOnlyThisEval(t *testing.T) {
	tasks := liveTasks(2)
	journal, _, err := OpenJournal(filepath.Join(t.TempDir(), "j.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer journal.Close()
	done := []JournalEntry{
		{TaskID: "t0", Policy: "good", Repeat: 0, Grade: Grade{Score: 1}},
		{TaskID: "t0", Policy: "other", Repeat: 0},
		{TaskID: "gone", Policy: "good", Repeat: 0},
		{TaskID: "t1", Policy: "good", Repeat: 5},
	}
	runner := newFakeRunner(tasks)
	var last Progress
	entries, err := RunLive(context.Background(), runner, LiveOptions{Tasks: tasks, Policies: []string{"good"}, Journal: journal,
		Done: done, Progress: func(p Progress) { last = p }})
	if err != nil {
		t.Fatal(err)
	}
	if runner.count() != 1 || len(entries) != 2 || last.Done != 2 || last.Total != 2 {
		t.Fatalf("ran %d, entries %d, progress %+v; want 1, 2, 2/2", runner.count(), len(entries), last)
	}
}
