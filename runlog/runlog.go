package runlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"

	"github.com/toolhub/toolhub/conductor"
)

// RunLog stores finished runs in Badger, keyed by run ID (IDs start with
// their UTC start time, so keys sort oldest first).
type RunLog struct {
	db *badger.DB
}

// ErrRunNotFound reports an unknown run ID.
var ErrRunNotFound = errors.New("run not found")

const runKeyPrefix = "run/"

// OpenRunLog opens (creating) the run log in dir, sized for a desktop.
func OpenRunLog(dir string) (*RunLog, error) {
	db, err := badger.Open(runLogOptions(dir))
	if err != nil {
		return nil, fmt.Errorf("open run log %s: %w", dir, err)
	}
	return &RunLog{db: db}, nil
}

// runLogOptions shrinks Badger's server defaults: runs are small and rare.
func runLogOptions(dir string) badger.Options {
	return badger.DefaultOptions(dir).
		WithLogger(nil).
		WithMetricsEnabled(false).
		WithNumVersionsToKeep(1).
		WithMemTableSize(4 << 20).
		WithNumMemtables(1).
		WithNumLevelZeroTables(1).
		WithNumLevelZeroTablesStall(4).
		WithBaseTableSize(1 << 20).
		WithBaseLevelSize(4 << 20).
		WithBlockCacheSize(1 << 20).
		WithIndexCacheSize(1 << 20).
		WithValueThreshold(1 << 10).
		WithValueLogFileSize(16 << 20).
		WithNumCompactors(2).
		WithNumGoroutines(min(2, runtime.GOMAXPROCS(0))).
		WithCompression(options.Snappy).
		WithDetectConflicts(false)
}

// Close flushes and closes the log.
func (l *RunLog) Close() error { return l.db.Close() }

// Put stores run, replacing any earlier version with the same ID. Its
// request and reply bodies are stored once each under their sha256 and the
// run refers to them (see record).
func (l *RunLog) Put(run *conductor.Run) error {
	rec, bodies := newRecord(run)
	if err := l.putBodies(bodies); err != nil {
		return fmt.Errorf("store run %s: %w", run.ID, err)
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode run %s: %w", run.ID, err)
	}
	err = l.db.Update(func(txn *badger.Txn) error {
		return txn.Set([]byte(runKeyPrefix+run.ID), data)
	})
	if err != nil {
		return fmt.Errorf("store run %s: %w", run.ID, err)
	}
	return nil
}

// Get returns the run with id, its request and reply bodies included.
func (l *RunLog) Get(id string) (*conductor.Run, error) {
	var rec *record
	err := l.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get([]byte(runKeyPrefix + id))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return fmt.Errorf("%w: %s", ErrRunNotFound, id)
		}
		if err != nil {
			return err
		}
		return item.Value(func(v []byte) (err error) {
			rec, err = decodeRecord(v)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	if err := l.resolveBodies(rec); err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	return &rec.Run, nil
}

// List returns up to limit runs (0: all), newest first, without their
// request and reply bodies (Get has them).
func (l *RunLog) List(limit int) ([]*conductor.Run, error) {
	var runs []*conductor.Run
	err := l.db.View(func(txn *badger.Txn) error {
		opts := badger.DefaultIteratorOptions
		opts.Reverse = true
		opts.Prefix = []byte(runKeyPrefix)
		it := txn.NewIterator(opts)
		defer it.Close()
		// Reverse iteration starts from the largest key with the prefix.
		for it.Seek([]byte(runKeyPrefix + "\xff")); it.ValidForPrefix(opts.Prefix); it.Next() {
			var rec *record
			err := it.Item().Value(func(v []byte) (err error) {
				rec, err = decodeRecord(v)
				return err
			})
			if err != nil {
				return fmt.Errorf("decode %s: %w", it.Item().Key(), err)
			}
			runs = append(runs, &rec.Run)
			if limit > 0 && len(runs) == limit {
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return runs, nil
}
