package eval

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/policies"
	"github.com/toolhub/toolhub/runlog"
)

// Runner runs one episode with a named policy; the daemon's EpisodeRunner
// is one.
type Runner interface {
	Run(ctx context.Context, task conductor.Task, policyName string) (*conductor.Run, error)
}

// RunStore keeps finished runs; hub.RunLog is one.
type RunStore interface {
	Put(run *conductor.Run) error
}

// LiveOptions configure a live eval.
type LiveOptions struct {
	Tasks    []Task
	Policies []string
	Mode     conductor.Mode
	Repeat   int // episodes per task and policy; 1 when zero
	Parallel int // episodes at once; 1 when zero
	Grader   Grader
	Store    RunStore       // optional
	Journal  *Journal       // required: finished episodes are appended here
	Done     []JournalEntry // entries already in the journal; their episodes are skipped
	Progress func(Progress) // optional; called after every episode, from one goroutine at a time
}

// Progress is the state of a live eval after an episode.
type Progress struct {
	Done, Total int
	Accuracy    float64 // mean score so far, resumed episodes included
	SpendUSD    float64
}

type liveJob struct {
	task   Task
	policy string
	repeat int
}

// RunLive runs every (task, policy, repeat) episode not yet in the journal,
// grades it, stores the run and journals the result. It returns the entries
// of every episode the eval covers, earlier ones included. A cancelled
// context stops it; the episodes cut short are not journaled, so a rerun
// does them again.
func RunLive(ctx context.Context, runner Runner, opts LiveOptions) ([]JournalEntry, error) {
	jobs, wanted := pendingJobs(opts)
	l := &liveResults{total: len(wanted), progress: opts.Progress}
	for _, e := range opts.Done {
		if wanted[e.Key()] {
			l.entries = append(l.entries, e)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	feed := make(chan liveJob)
	var wg sync.WaitGroup
	for range max(1, opts.Parallel) {
		wg.Go(func() {
			for j := range feed {
				e, err := runOne(ctx, runner, opts, j)
				if err != nil {
					cancel() // one failure stops the eval; the journal keeps what finished
				}
				l.record(e, err)
			}
		})
	}
	sendJobs(ctx, feed, jobs)
	wg.Wait()
	if l.err == nil && ctx.Err() != nil {
		l.err = context.Cause(ctx)
	}
	return l.entries, l.err
}

// liveResults gathers finished episodes from the workers.
type liveResults struct {
	mu       sync.Mutex
	entries  []JournalEntry
	err      error // the first failure
	total    int
	progress func(Progress)
}

func (l *liveResults) record(e JournalEntry, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		if l.err == nil {
			l.err = err
		}
		return
	}
	l.entries = append(l.entries, e)
	if l.progress != nil {
		l.progress(progressOf(l.entries, l.total))
	}
}

// sendJobs feeds the workers until the jobs run out or ctx ends, then
// closes feed.
func sendJobs(ctx context.Context, feed chan<- liveJob, jobs []liveJob) {
	defer close(feed)
	for _, j := range jobs {
		select {
		case feed <- j:
		case <-ctx.Done():
			return
		}
	}
}

// pendingJobs lists the episodes not in opts.Done, in task order, and the
// keys of every episode the eval covers (journal entries outside it, from
// other tasks, policies or repeats, are left out of its results).
func pendingJobs(opts LiveOptions) ([]liveJob, map[string]bool) {
	done := map[string]bool{}
	for _, e := range opts.Done {
		done[e.Key()] = true
	}
	wanted := map[string]bool{}
	var jobs []liveJob
	for _, t := range opts.Tasks {
		for _, p := range opts.Policies {
			for r := range max(1, opts.Repeat) {
				key := episodeKey(t.ID, p, r)
				wanted[key] = true
				if !done[key] {
					jobs = append(jobs, liveJob{task: t, policy: p, repeat: r})
				}
			}
		}
	}
	return jobs, wanted
}

// runOne runs, grades, stores and journals one episode.
func runOne(ctx context.Context, runner Runner, opts LiveOptions, j liveJob) (JournalEntry, error) {
	run, runErr := runner.Run(ctx, conductor.Task{Text: j.task.Question, Mode: opts.Mode, Expected: j.task.Answer}, j.policy)
	if ctx.Err() != nil {
		return JournalEntry{}, ctx.Err()
	}
	e := JournalEntry{TaskID: j.task.ID, Policy: j.policy, Repeat: j.repeat, Domain: j.task.Domain, Time: time.Now().UTC()}
	if run == nil {
		if runErr == nil {
			runErr = errors.New("the runner returned no run")
		}
		e.Status, e.Error = conductor.RunFailed, runErr.Error()
		return e, opts.Journal.Append(e)
	}
	e.RunID, e.Status, e.Answer = run.ID, run.Status, run.Answer
	if runErr != nil {
		e.Error = runErr.Error()
	}
	if run.Status == conductor.RunAnswered {
		g, err := opts.Grader.Grade(ctx, j.task, run.Answer)
		if err != nil {
			return JournalEntry{}, fmt.Errorf("grade task %s: %w", j.task.ID, err)
		}
		e.Grade = g
	}
	e.M = policies.RewardFromComponents(runlog.ExportTrajectory(run).Reward, e.Grade.Score)
	if opts.Store != nil {
		if err := opts.Store.Put(run); err != nil {
			return JournalEntry{}, fmt.Errorf("store run %s: %w", run.ID, err)
		}
	}
	return e, opts.Journal.Append(e)
}

func progressOf(entries []JournalEntry, total int) Progress {
	p := Progress{Done: len(entries), Total: total}
	for _, e := range entries {
		p.Accuracy += e.Grade.Score
		p.SpendUSD -= e.M.Cost
	}
	if len(entries) > 0 {
		p.Accuracy /= float64(len(entries))
	}
	return p
}
