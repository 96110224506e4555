package policies

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/toolhub/toolhub/internal/fsutil"
)

// KNNTrainingEnv names the environment variable holding the knn policy's
// training file; without it the file is KNNTrainingFile in the user data
// directory (fsutil.DataDir: $XDG_DATA_HOME/toolhub or ~/.local/share/toolhub,
// %LOCALAPPDATA%\toolhub on Windows).
const (
	KNNTrainingEnv  = "TOOLHUB_KNN_TRAINING"
	KNNTrainingFile = "knn-train.jsonl"
)

// DefaultKNNTrainingPath is where the knn policy looks for its training
// file when the policy spec names none.
func DefaultKNNTrainingPath() (string, error) {
	if p := os.Getenv(KNNTrainingEnv); p != "" {
		return p, nil
	}
	path, err := fsutil.DataPath(KNNTrainingFile)
	if err != nil {
		return "", fmt.Errorf("locate knn training file: %w", err)
	}
	return path, nil
}

// LoadKNNTraining reads recorded outcomes in either shape:
//   - a JSON array, or JSONL, of {"question", "scores": {model: score},
//     ["task": family], ["choices": options]} (the routing replay set's
//     train split; a question is read with its choices, WithChoices);
//   - JSONL of exported runs ("toolhub runs export"): each run of a
//     fixed:MODEL policy with a known outcome scores MODEL on its task;
//     repeated runs of a task average.
func LoadKNNTraining(path string) ([]KNNExample, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read knn training file: %w", err)
	}
	return ParseKNNTraining(path, data)
}

// ParseKNNTraining parses training data in either shape LoadKNNTraining
// reads; name labels errors.
func ParseKNNTraining(path string, data []byte) ([]KNNExample, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		var rows []exampleJSON
		if err := json.Unmarshal(t, &rows); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out := make([]KNNExample, len(rows))
		for i, r := range rows {
			out[i] = r.example()
		}
		return out, nil
	}
	return parseKNNLines(path, data)
}

// exampleJSON is a recorded example as the replay set's rows write it.
type exampleJSON struct {
	Question string             `json:"question"`
	Choices  Choices            `json:"choices"`
	Scores   map[string]float64 `json:"scores"`
	Task     string             `json:"task"`
}

// knnLine is either an example or an exported run.
type knnLine struct {
	exampleJSON
	Policy string `json:"policy"`
	Reward struct {
		Outcome *int `json:"outcome"`
	} `json:"reward"`
}

// example is the row as an example: its question read with its choices,
// its scores and family.
func (r exampleJSON) example() KNNExample {
	return KNNExample{Question: WithChoices(r.Question, r.Choices), Scores: r.Scores, Task: r.Task}
}

func parseKNNLines(path string, data []byte) ([]KNNExample, error) {
	var out []KNNExample
	runs := newOutcomeTable()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l knnLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		switch {
		case l.Question != "" && len(l.Scores) > 0: // an example's "task" is its family
			out = append(out, l.example())
		case l.Task != "" && strings.HasPrefix(l.Policy, PolicyFixedPrefix) && l.Reward.Outcome != nil:
			runs.add(l.Task, strings.TrimPrefix(l.Policy, PolicyFixedPrefix), float64(*l.Reward.Outcome))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out = append(out, runs.examples()...)
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no recorded outcomes (want {question, scores} lines or exported fixed:MODEL runs with outcomes)", path)
	}
	return out, nil
}

// outcomeTable averages run outcomes per task and model, in first-seen order.
type outcomeTable struct {
	order []string
	sum   map[string]map[string]float64
	count map[string]map[string]float64
}

func newOutcomeTable() *outcomeTable {
	return &outcomeTable{sum: map[string]map[string]float64{}, count: map[string]map[string]float64{}}
}

func (t *outcomeTable) add(task, model string, outcome float64) {
	if t.sum[task] == nil {
		t.order = append(t.order, task)
		t.sum[task], t.count[task] = map[string]float64{}, map[string]float64{}
	}
	t.sum[task][model] += outcome
	t.count[task][model]++
}

func (t *outcomeTable) examples() []KNNExample {
	out := make([]KNNExample, 0, len(t.order))
	for _, task := range t.order {
		scores := map[string]float64{}
		for m, s := range t.sum[task] {
			scores[m] = s / t.count[task][m]
		}
		out = append(out, KNNExample{Question: task, Scores: scores})
	}
	return out
}

// knnCache keeps trained routers by file, retrained when the file changes.
var knnCache = struct {
	sync.Mutex
	byPath map[string]cachedKNN
}{byPath: map[string]cachedKNN{}}

type cachedKNN struct {
	mod   time.Time
	size  int64
	knn   *KNN
	blend *Blend // trained on first use
	// examples are kept to train the blend later.
	examples []KNNExample
}

// LoadKNN trains a router from the file at path (cached while the file is
// unchanged). A missing file is reported with how to create one.
func LoadKNN(path string) (*KNN, error) {
	c, err := loadRouters(path, false)
	return c.knn, err
}

// LoadBlend trains the blended router (LogReg and KNN) from the file at
// path, cached like LoadKNN.
func LoadBlend(path string) (*Blend, error) {
	c, err := loadRouters(path, true)
	return c.blend, err
}

func loadRouters(path string, blend bool) (cachedKNN, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cachedKNN{}, fmt.Errorf("the knn policy needs recorded outcomes to learn from, and %s does not exist: "+
			"write {question, scores} lines or exported fixed:MODEL runs there, or set %s", path, KNNTrainingEnv)
	}
	if err != nil {
		return cachedKNN{}, fmt.Errorf("knn training file: %w", err)
	}
	knnCache.Lock()
	defer knnCache.Unlock()
	c, ok := knnCache.byPath[path]
	if !ok || !c.mod.Equal(st.ModTime()) || c.size != st.Size() {
		examples, err := LoadKNNTraining(path)
		if err != nil {
			return cachedKNN{}, err
		}
		c = cachedKNN{mod: st.ModTime(), size: st.Size(), knn: TrainKNN(examples, 0)}
		c.examples = examples
	}
	if blend && c.blend == nil {
		c.blend = &Blend{Routers: []Router{TrainLogReg(c.examples, LogRegOptions{}), c.knn}}
	}
	knnCache.byPath[path] = c
	return c, nil
}
