package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/policies"
)

// JournalEntry is one finished, graded episode of a live eval.
type JournalEntry struct {
	TaskID string                `json:"task_id"`
	Policy string                `json:"policy"`
	Repeat int                   `json:"repeat"`
	Domain string                `json:"domain,omitempty"`
	RunID  string                `json:"run_id,omitempty"`
	Status conductor.RunStatus   `json:"status"`
	Answer string                `json:"answer,omitempty"`
	Grade  Grade                 `json:"grade"`
	M      policies.RewardVector `json:"m"` // the paper's vector: calls per tool, outcome, −USD, −seconds
	Error  string                `json:"error,omitempty"`
	Time   time.Time             `json:"time"`
}

// Key identifies an episode of an eval: (task, policy, repeat).
func (e JournalEntry) Key() string { return episodeKey(e.TaskID, e.Policy, e.Repeat) }

func episodeKey(task, policy string, repeat int) string {
	return fmt.Sprintf("%s\x00%s\x00%d", task, policy, repeat)
}

// Journal is an append-only JSONL file of finished episodes, synced after
// every line, so an eval killed at any point resumes where it stopped.
type Journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
}

// OpenJournal opens (creating) the journal at path and returns the entries
// already in it. A torn last line, left by a kill mid-write, is cut off.
func OpenJournal(path string) (*Journal, []JournalEntry, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("read journal: %w", err)
	}
	whole := data[:bytes.LastIndexByte(data, '\n')+1]
	entries, err := parseJournal(path, whole)
	if err != nil {
		return nil, nil, err
	}
	if len(whole) < len(data) {
		if err := os.Truncate(path, int64(len(whole))); err != nil {
			return nil, nil, fmt.Errorf("cut torn journal line: %w", err)
		}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open journal: %w", err)
	}
	return &Journal{f: f, path: path}, entries, nil
}

func parseJournal(path string, data []byte) ([]JournalEntry, error) {
	var out []JournalEntry
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e JournalEntry
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("%s:%d: bad journal line: %w", path, i+1, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// Append writes e as one line and syncs it to disk.
func (j *Journal) Append(e JournalEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("encode journal entry: %w", err)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("write journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("sync journal %s: %w", j.path, err)
	}
	return nil
}

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }
