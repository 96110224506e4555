package daemon

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/runlog"
)

// runStore writes finished runs to the Badger run log. It opens the log for
// each write only, so `toolhub runs` can read it while the daemon runs;
// writes from concurrent episodes take turns.
type runStore struct {
	mu  sync.Mutex
	dir string
}

// put stores run; a store without a directory keeps nothing.
func (s *runStore) put(run *conductor.Run) error {
	if s == nil || s.dir == "" || run == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	log, err := openRunLog(s.dir)
	if err != nil {
		return fmt.Errorf("store run %s: %w", run.ID, err)
	}
	err = log.Put(run)
	if cerr := log.Close(); cerr != nil {
		err = errors.Join(err, cerr)
	}
	if err != nil {
		return fmt.Errorf("store run %s: %w", run.ID, err)
	}
	return nil
}

// Opening is retried for a while: another toolhub process (the desktop,
// `toolhub runs`) may hold the log for a moment.
const (
	openRetries    = 20
	openRetryPause = 50 * time.Millisecond
)

func openRunLog(dir string) (*runlog.RunLog, error) {
	var err error
	for range openRetries {
		var log *runlog.RunLog
		if log, err = runlog.OpenRunLog(dir); err == nil {
			return log, nil
		}
		time.Sleep(openRetryPause)
	}
	return nil, err
}
