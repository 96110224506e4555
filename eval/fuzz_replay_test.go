package eval

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func FuzzParseScores(f *testing.F) {
	f.Add([]byte(`[{"question":"q","scores":{"a":1,"b":0.5}}]`))
	f.Add([]byte(`[{"id":"x","question":"q","scores":{"a":1},"cost_usd":{"a":0.1},"latency_s":{"a":2},"tokens_in":{"a":3},"tokens_out":{"a":4}}]`))
	f.Add([]byte(`[{"question":"q","scores":{}}]`))
	f.Add([]byte(`[{"question":"q","scores":{"a":1e999}}]`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ParseScores("s.json", "train", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "s.json:") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, r := range rows {
			if len(r.Scores) == 0 || strings.TrimSpace(r.Question) == "" {
				t.Fatal("a row without scores or question was accepted")
			}
			if r.ID == "" || ids[r.ID] {
				t.Fatalf("row id %q empty or given twice", r.ID)
			}
			ids[r.ID] = true
			for _, s := range r.Scores {
				if !(s >= 0 && s <= 1) {
					t.Fatalf("score %v accepted", s)
				}
			}
			for _, c := range r.CostUSD {
				if !(c >= 0) || math.IsInf(c, 0) {
					t.Fatalf("cost %v accepted", c)
				}
			}
		}
	})
}

func FuzzParseCandidates(f *testing.F) {
	f.Add([]byte(`{"a":{"size":"7B","input_price":0.2,"output_price":0.2}}`))
	f.Add([]byte(`[{"name":"a","input_price":1,"output_price":2,"size":"","context":8192}]`))
	f.Add([]byte(`[{"name":"a","input_price":1,"output_price":2,"size":"7x8B"}]`))
	f.Add([]byte(`{"a":{"size":"-3B","input_price":1}}`))
	f.Add([]byte(`[{"name":"a","size":"70B"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		models, err := ParseCandidates("c.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c.json:") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, m := range models {
			if m.Name == "" || seen[m.Name] || !(m.PriceIn >= 0) || !(m.PriceOut >= 0) || m.SizeB < 0 || math.IsNaN(m.SizeB) || m.Context < 0 ||
				(m.Unpriced && (m.PriceIn != 0 || m.PriceOut != 0)) {
				t.Fatalf("bad candidate accepted: %+v", m)
			}
			seen[m.Name] = true
		}
	})
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"7B", "1.5b", "", " 70 ", "8x7B", "NaNB", "-1B", "1e400B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseSize(s)
		if err != nil {
			return
		}
		if strings.TrimSpace(s) == "" {
			if b != 0 {
				t.Fatalf("empty size read as %v", b)
			}
			return
		}
		if !(b > 0) || math.IsInf(b, 0) {
			t.Fatalf("ParseSize(%q) = %v", s, b)
		}
	})
}

func FuzzConvertOutcomes(f *testing.F) {
	f.Add([]byte("id,split,question,model,score\nq1,train,hi,a,1\nq1,train,hi,b,0\n"))
	f.Add([]byte("id,split,question,task,model,score,cost_usd,latency_s,tokens_in,tokens_out\nq,test,x,t,a,0.5,0.1,,3,\n"))
	f.Add([]byte("id,split\n\"unterminated\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		train, test, err := ConvertOutcomes("o.csv", bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "o.csv") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, r := range append(train, test...) {
			if r.ID == "" || r.Question == "" || ids[r.ID] || checkRowValues(r) != nil {
				t.Fatalf("bad row accepted: %+v", r)
			}
			ids[r.ID] = true
		}
	})
}
