package eval

import (
	"maps"
	"runtime"
	"strings"
	"testing"
	"weak"
)

// capitalRouter predicts that cheap solves the questions that name a
// capital and big every question, and counts the questions it was asked.
type capitalRouter struct {
	asked int
	// name makes the router hold a pointer, so that it is not put in the
	// runtime's tiny-object blocks: an object there stays alive while its
	// neighbours do, and the weak pointer of the test below would not
	// see it collected.
	name *string
}

func (r *capitalRouter) Predict(question string, allowed []string) map[string]float64 {
	r.asked++
	p := map[string]float64{"cheap": 0, "big": 1}
	if strings.Contains(question, "capital") {
		p["cheap"] = 1
	}
	return p
}

func (r *capitalRouter) Candidates() []string { return []string{"big", "cheap"} }
func (r *capitalRouter) Len() int             { return 0 }

func TestEvalPredictionCacheKeepsPredictionsNotTheRouter(t *testing.T) {
	set := syntheticSet(t)
	router := &capitalRouter{}
	held := weak.Make(router)
	cache := newPredictionCache(router, set)
	questions := map[string]bool{}
	for _, row := range set.Test {
		questions[row.Question] = true
	}
	if router.asked != len(questions) {
		t.Fatalf("the router was asked %d times for %d scored questions", router.asked, len(questions))
	}
	router = nil
	runtime.GC()
	if held.Value() != nil {
		t.Fatal("the cache keeps its router alive after predicting")
	}
	want := &capitalRouter{}
	for _, row := range set.Test {
		if got := cache.predict(row); !maps.Equal(got, want.Predict(row.Question, nil)) {
			t.Fatalf("%q: prediction %v, want the router's", row.Question, got)
		}
	}
	if got := cache.predict(ReplayRow{Question: "a question no row scores"}); got != nil {
		t.Fatalf("an unscored question has prediction %v, want none", got)
	}
	p := knnPolicy{router: KNNName, models: set.Models, cache: cache}
	if got := p.Choose(ReplayRow{Question: "a question no row scores"}); got != "cheap" {
		t.Fatalf("an unscored question goes to %s, want the cheapest", got)
	}
}
