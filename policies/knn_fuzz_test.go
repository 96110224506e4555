package policies_test

import (
	"strings"
	"testing"

	"github.com/toolhub/toolhub/policies"
)

func FuzzKNNTraining(f *testing.F) {
	f.Add([]byte(`[{"question":"q","scores":{"a":1}}]`))
	f.Add([]byte(`{"question":"q","scores":{"a":0.5}}` + "\n" + `{"task":"t","policy":"fixed:m","reward":{"outcome":1}}`))
	f.Add([]byte("{\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		examples, err := policies.ParseKNNTraining("train.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "train.jsonl") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		// Whatever parsed must train and answer without panicking.
		k := policies.TrainKNN(examples, 0)
		if len(examples) > 0 {
			_ = k.Predict(examples[0].Question, k.Candidates())
		}
	})
}
