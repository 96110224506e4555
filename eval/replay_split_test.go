package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestEvalReplayValidationReadsNoTestFile: --split validation scores rows
// held out of train, so whatever the test file holds, or its absence,
// changes nothing; the test split itself refuses each of those files.
func TestEvalReplayValidationReadsNoTestFile(t *testing.T) {
	var train []ReplayRow
	for i := range 40 {
		train = append(train, row("", fmt.Sprint("question ", i), map[string]float64{"a": float64(i % 2), "b": 1}))
	}
	cases := []struct {
		name string
		test string // scores_test.json; "-": no such file
	}{
		{"missing", "-"},
		{"empty array", "[]"},
		{"empty file", ""},
		{"not JSON", "not json"},
		{"a row missing a score", `[{"question":"q","scores":{"a":1}}]`},
		{"a row scoring a model without a price", `[{"question":"q","scores":{"a":1,"b":1,"z":1}}]`},
		{"a score out of range", `[{"question":"q","scores":{"a":7,"b":1}}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeReplayDir(t, train, nil, twoModels)
			path := filepath.Join(dir, replayTestScores)
			var err error
			if tc.test == "-" {
				err = os.Remove(path)
			} else {
				err = os.WriteFile(path, []byte(tc.test), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := LoadReplay(dir); err == nil {
				t.Fatal("the test split loaded from this test file")
			}
			v, err := LoadReplayWith(dir, LoadOptions{Split: SplitValidation})
			if err != nil {
				t.Fatalf("validation: %v", err)
			}
			if v.splitName() != SplitValidation || len(v.Train)+len(v.Test) != len(train) || len(v.Test) == 0 || len(v.Models) != 2 {
				t.Fatalf("validation set: %d train, %d scored rows, %d models", len(v.Train), len(v.Test), len(v.Models))
			}
		})
	}
}
