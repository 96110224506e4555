package runlog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"

	"github.com/toolhub/toolhub/conductor"
)

// LogVersion is the version of the records Put writes. Version 1 (the
// field absent) stored a run as its JSON alone; version 2 stores each model
// step's request and reply body once, under its sha256, and the run refers
// to them: one orchestrator turn's request repeats most of the previous
// one's, and a replay repeats a whole first request.
const LogVersion = 2

const bodyKeyPrefix = "body/"

// record is a run as stored. Its steps hold no bodies; Bodies lists where
// they are.
type record struct {
	LogVersion int `json:"log_version,omitempty"`
	conductor.Run
	Bodies []bodyRef `json:"bodies,omitempty"`
}

// bodyRef names the bodies of one step by their sha256 (hex).
type bodyRef struct {
	Step    int    `json:"step"`
	Request string `json:"request,omitempty"`
	Reply   string `json:"reply,omitempty"`
}

// newRecord splits run into its record and the bodies it refers to, by
// digest. run itself is not changed.
func newRecord(run *conductor.Run) (*record, map[string][]byte) {
	rec := &record{LogVersion: LogVersion, Run: *run}
	rec.Steps = append([]conductor.Step(nil), run.Steps...)
	bodies := map[string][]byte{}
	keep := func(b []byte) string {
		if len(b) == 0 {
			return ""
		}
		d := digest(b)
		bodies[d] = b
		return d
	}
	for i := range rec.Steps {
		s := &rec.Steps[i]
		ref := bodyRef{Step: i, Request: keep(s.Request), Reply: keep(s.Reply)}
		s.Request, s.Reply = nil, nil
		if ref.Request != "" || ref.Reply != "" {
			rec.Bodies = append(rec.Bodies, ref)
		}
	}
	return rec, bodies
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// decodeRecord reads a stored run of any version. A version 1 record is a
// run's JSON: it decodes with LogVersion 0 and no Bodies.
func decodeRecord(data []byte) (*record, error) {
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, err
	}
	if rec.LogVersion > LogVersion {
		return nil, fmt.Errorf("run log version %d is newer than this toolhub (%d)", rec.LogVersion, LogVersion)
	}
	for _, ref := range rec.Bodies {
		if ref.Step < 0 || ref.Step >= len(rec.Steps) {
			return nil, fmt.Errorf("body of step %d: the run has %d steps", ref.Step, len(rec.Steps))
		}
	}
	return &rec, nil
}

// putBodies stores the bodies not stored yet, in as few transactions as
// Badger allows.
func (l *RunLog) putBodies(bodies map[string][]byte) error {
	txn := l.db.NewTransaction(true)
	defer func() { txn.Discard() }()
	for d, b := range bodies {
		key := []byte(bodyKeyPrefix + d)
		if _, err := txn.Get(key); err == nil {
			continue
		} else if !errors.Is(err, badger.ErrKeyNotFound) {
			return fmt.Errorf("look up body %s: %w", d, err)
		}
		err := txn.Set(key, b)
		if errors.Is(err, badger.ErrTxnTooBig) {
			if err = txn.Commit(); err != nil {
				return fmt.Errorf("store bodies: %w", err)
			}
			txn = l.db.NewTransaction(true)
			err = txn.Set(key, b)
		}
		if err != nil {
			return fmt.Errorf("store body %s: %w", d, err)
		}
	}
	if err := txn.Commit(); err != nil {
		return fmt.Errorf("store bodies: %w", err)
	}
	return nil
}

// resolveBodies puts the bodies rec refers to back into its steps, checking
// each against its digest.
func (l *RunLog) resolveBodies(rec *record) error {
	if len(rec.Bodies) == 0 {
		return nil
	}
	return l.db.View(func(txn *badger.Txn) error {
		for _, ref := range rec.Bodies {
			s := &rec.Steps[ref.Step]
			var err error
			if s.Request, err = readBody(txn, ref.Request); err != nil {
				return fmt.Errorf("request of step %d: %w", ref.Step, err)
			}
			if s.Reply, err = readBody(txn, ref.Reply); err != nil {
				return fmt.Errorf("reply of step %d: %w", ref.Step, err)
			}
		}
		return nil
	})
}

func readBody(txn *badger.Txn, d string) ([]byte, error) {
	if d == "" {
		return nil, nil
	}
	item, err := txn.Get([]byte(bodyKeyPrefix + d))
	if errors.Is(err, badger.ErrKeyNotFound) {
		return nil, fmt.Errorf("body %s is missing from the run log", d)
	}
	if err != nil {
		return nil, err
	}
	b, err := item.ValueCopy(nil)
	if err != nil {
		return nil, err
	}
	if digest(b) != d {
		return nil, fmt.Errorf("body %s does not match its digest: the run log is damaged", d)
	}
	return b, nil
}
