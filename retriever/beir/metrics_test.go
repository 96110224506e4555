package beir

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestNDCG(t *testing.T) {
	rel := map[string]int{"a": 1, "b": 1}
	tests := []struct {
		name   string
		ranked []string
		k      int
		want   float64
	}{
		{name: "perfect", ranked: []string{"a", "b", "x"}, k: 10, want: 1},
		{name: "none found", ranked: []string{"x", "y"}, k: 10, want: 0},
		{name: "one at rank 2", ranked: []string{"x", "a"}, k: 10, want: (1 / math.Log2(3)) / (1 + 1/math.Log2(3))},
		{name: "beyond k ignored", ranked: []string{"x", "a"}, k: 1, want: 0},
		{name: "empty ranking", ranked: nil, k: 10, want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := NDCG(tc.ranked, rel, tc.k); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("NDCG = %v, want %v", got, tc.want)
			}
		})
	}
	graded := map[string]int{"a": 2, "b": 1}
	want := (1/math.Log2(2) + 3/math.Log2(3)) / (3/math.Log2(2) + 1/math.Log2(3))
	if got := NDCG([]string{"b", "a"}, graded, 10); math.Abs(got-want) > 1e-12 {
		t.Errorf("graded NDCG = %v, want %v", got, want)
	}
	if got := NDCG([]string{"a"}, map[string]int{}, 10); got != 0 {
		t.Errorf("no judgements: %v", got)
	}
}

func TestRecall(t *testing.T) {
	rel := map[string]int{"a": 1, "b": 1, "c": 0}
	if got := Recall([]string{"x", "a", "c"}, rel, 100); got != 0.5 {
		t.Errorf("Recall = %v, want 0.5", got)
	}
	if got := Recall([]string{"x", "a", "b"}, rel, 2); got != 0.5 {
		t.Errorf("Recall@2 = %v, want 0.5", got)
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	for p, want := range map[float64]time.Duration{50: 50 * time.Millisecond, 99: 99 * time.Millisecond, 100: 100 * time.Millisecond, 0: time.Millisecond} {
		if got := Percentile(ds, p); got != want {
			t.Errorf("p%v = %v, want %v", p, got, want)
		}
	}
	if Percentile(nil, 50) != 0 {
		t.Error("no samples should give 0")
	}
}

func TestParseQrels(t *testing.T) {
	in := "query-id\tcorpus-id\tscore\r\n1\t31715818\t1\r\n1\t99\t0\r\n3\t14717500\t1\r\n\r\n"
	q, err := parseQrels(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(q) != 2 || q["1"]["31715818"] != 1 || q["1"]["99"] != 0 || q["3"]["14717500"] != 1 {
		t.Errorf("qrels = %v", q)
	}
	if _, err := parseQrels(strings.NewReader("query-id\tcorpus-id\tscore\n1\t2\n")); err == nil {
		t.Error("a short line was accepted")
	}
}

func TestDedupeKeepsBestRank(t *testing.T) {
	got := Dedupe([]string{"a", "b", "a", "c", "b"})
	if strings.Join(got, ",") != "a,b,c" {
		t.Errorf("Dedupe = %v", got)
	}
}

func FuzzParseQrels(f *testing.F) {
	f.Add("query-id\tcorpus-id\tscore\r\n1\t2\t1\r\n")
	f.Add("a\tb\tx\n")
	f.Add("\t\t\t\n")
	f.Fuzz(func(t *testing.T, in string) {
		q, err := parseQrels(strings.NewReader(in))
		if err != nil {
			return
		}
		for qid, docs := range q {
			if docs == nil {
				t.Fatalf("query %q without a judgement map", qid)
			}
		}
	})
}
