package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Two task families whose prompts are the same length: what big writes back
// (so what it costs and how long it takes) depends on the family, which
// the question's words tell and its length does not.
const (
	codeQuestion   = "write a python function that sorts list %04d and explain the code"
	triviaQuestion = "which river flows through capital city %04d in this trivia quiz?"
)

var nearModels = []ReplayModel{
	{Name: "cheap", PriceIn: 0.1, PriceOut: 0.1, SizeB: 8},
	{Name: "big", PriceIn: 1, PriceOut: 1, SizeB: 70},
}

// outcomeRows are n rows alternating code and trivia; outcome gives big's
// cost and latency as a multiple of its proxy and of one second.
func outcomeRows(n, offset int, outcome func(i int, code bool) (unit, secs float64)) []ReplayRow {
	rows := make([]ReplayRow, n)
	for i := range rows {
		code := i%2 == 0
		q := fmt.Sprintf(triviaQuestion, i+offset)
		if code {
			q = fmt.Sprintf(codeQuestion, i+offset)
		}
		unit, secs := outcome(i, code)
		rows[i] = ReplayRow{Question: q, Scores: map[string]float64{"cheap": 1, "big": 1},
			CostUSD:  map[string]float64{"cheap": ProxyCostUSD(nearModels[0], q), "big": unit * ProxyCostUSD(nearModels[1], q)},
			LatencyS: map[string]float64{"cheap": 2, "big": secs}}
	}
	return rows
}

func byFamily(code, trivia float64) func(int, bool) (float64, float64) {
	return func(_ int, isCode bool) (float64, float64) {
		if isCode {
			return code, code
		}
		return trivia, trivia
	}
}

func TestEvalReplayEstimatesPerQuestionWhereTrainSaysSo(t *testing.T) {
	noise := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name string
		rows []ReplayRow
		// wantCode, wantTrivia: big's estimated cost (in proxies) and
		// latency on new questions of each family; 0: not per question.
		wantCode, wantTrivia float64
	}{
		{"outcomes that follow the family are estimated per question",
			outcomeRows(400, 0, byFamily(10, 1)), 10, 1},
		{"outcomes that are noise keep one figure per model",
			outcomeRows(400, 0, func(int, bool) (float64, float64) {
				u := 1 + 9*noise.Float64()
				return u, u
			}), 0, 0},
		{"one outcome for every question keeps one figure per model",
			outcomeRows(400, 0, byFamily(3, 3)), 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			choice := chooseEstimates(nearModels, tc.rows)
			if tc.wantCode == 0 {
				if choice.CostK != 0 || choice.LatencyK != 0 {
					t.Fatalf("chose neighbours: %+v", choice)
				}
				return
			}
			if choice.CostK == 0 || choice.LatencyK == 0 || choice.CostError >= choice.CostErrorPerModel {
				t.Fatalf("kept one figure per model: %+v", choice)
			}
			e := newAnswerEstimates(nearModels, tc.rows, choice)
			for _, probe := range []struct {
				q    string
				want float64
			}{{fmt.Sprintf(codeQuestion, 9000), tc.wantCode}, {fmt.Sprintf(triviaQuestion, 9001), tc.wantTrivia}} {
				c := e.candidates(nearModels, ReplayRow{Question: probe.q})
				unit := c[1].Cost / ProxyCostUSD(nearModels[1], probe.q)
				if math.Abs(unit-probe.want)/probe.want > 0.2 || math.Abs(c[1].Latency-probe.want)/probe.want > 0.2 {
					t.Fatalf("%q: big estimated at %.2f proxies and %.2f s, want about %v", probe.q, unit, c[1].Latency, probe.want)
				}
				if math.Abs(c[0].Latency-2) > 1e-9 {
					t.Fatalf("cheap's latency %v, want its constant 2 s", c[0].Latency)
				}
			}
		})
	}
}

// TestEvalReplayPerQuestionCostsRouteBetter checks the estimates pay in
// routing: big scores 1 and cheap 0.7 on every question, but big writes
// ten times as much on code. Knowing that, a router buys big's extra 0.3
// on trivia first, where it is cheap; one cost figure per model makes it
// trade the two families alike, all or nothing. The hull's mean accuracy
// (AIQ) says which did better overall.
func TestEvalReplayPerQuestionCostsRouteBetter(t *testing.T) {
	mk := func(n, offset int) []ReplayRow {
		rows := outcomeRows(n, offset, byFamily(10, 1))
		for i := range rows {
			rows[i].Scores["cheap"] = 0.7
		}
		return rows
	}
	cands := `[{"name":"cheap","input_price":0.1,"output_price":0.1,"size":"8B"},{"name":"big","input_price":1,"output_price":1,"size":"70B"}]`
	aiq := map[bool]float64{}
	for _, perModel := range []bool{false, true} {
		set, err := LoadReplay(writeReplayDir(t, mk(300, 0), mk(60, 1000), cands))
		if err != nil {
			t.Fatal(err)
		}
		if perModel {
			set.estimates = &EstimateChoice{}
		} else if set.estimateChoice().CostK == 0 {
			t.Fatalf("the set's costs follow its families, yet one figure per model was chosen: %+v", set.estimateChoice())
		}
		rep, err := Replay(set, ReplayOptions{Policies: []string{SinglesName, LogRegName}})
		if err != nil {
			t.Fatal(err)
		}
		aiq[perModel] = rep.Sweeps[0].AIQ
		if !perModel && !hasNote(rep.Notes, "most similar train questions") {
			t.Fatalf("the report does not say how costs were estimated: %q", rep.Notes)
		}
	}
	t.Logf("AIQ %.3f with per-question costs, %.3f with one per model", aiq[false], aiq[true])
	if aiq[false] <= aiq[true] {
		t.Fatalf("AIQ %.3f with per-question costs, %.3f with one per model", aiq[false], aiq[true])
	}
}

func hasNote(notes []string, part string) bool {
	for _, n := range notes {
		if strings.Contains(n, part) {
			return true
		}
	}
	return false
}
