package eval

import (
	"fmt"
	"hash/fnv"
)

// Splits a replay can be scored on.
const (
	SplitTest       = "test"
	SplitValidation = "validation"
)

// ValidationPercent is the share of the train split held out as
// validation: rows whose question hashes (FNV-1a) below it, so repeated
// questions stay on one side and the split never depends on row order.
const ValidationPercent = 20

// inValidation reports whether question belongs to the validation part.
func inValidation(question string) bool {
	h := fnv.New32a()
	h.Write([]byte(question))
	return h.Sum32()%100 < ValidationPercent
}

// ValidationSet returns the set to choose a router's settings on: the
// train split without its validation part as train, and that part as the
// rows to score. The test split is not part of it.
func (s *ReplaySet) ValidationSet() (*ReplaySet, error) {
	v := &ReplaySet{Dir: s.Dir, Models: s.Models, Split: SplitValidation, Incomplete: s.Incomplete}
	for _, r := range s.Train {
		if inValidation(r.Question) {
			v.Test = append(v.Test, r)
		} else {
			v.Train = append(v.Train, r)
		}
	}
	if len(v.Train) == 0 || len(v.Test) == 0 {
		return nil, fmt.Errorf("%s: %d train rows are too few to hold out a validation part", s.Dir, len(s.Train))
	}
	return v, nil
}

// splitName is the split a set's scored rows come from.
func (s *ReplaySet) splitName() string {
	if s.Split == "" {
		return SplitTest
	}
	return s.Split
}
