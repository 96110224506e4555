package eval

import (
	"strings"
	"testing"
)

func TestEvalConvertOutcomes(t *testing.T) {
	csv := "id,split,question,task,model,score,cost_usd,latency_s,tokens_in,tokens_out\n" +
		"q1,train,What is 2+2?,math,small,1,0.00002,1.1,12,30\n" +
		"q1,train,What is 2+2?,math,big,1,0.0002,3.0,12,28\n" +
		"q2,test,Capital of Peru?,qa,small,0,,,,\n" +
		"q2,test,Capital of Peru?,qa,big,1,,,,\n"
	train, test, err := ConvertOutcomes("o.csv", strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	if len(train) != 1 || len(test) != 1 {
		t.Fatalf("train %d, test %d", len(train), len(test))
	}
	r := train[0]
	if r.ID != "q1" || r.Task != "math" || r.Scores["big"] != 1 || r.CostUSD["small"] != 0.00002 || r.LatencyS["big"] != 3 ||
		r.TokensIn["small"] != 12 || r.TokensOut["big"] != 28 {
		t.Fatalf("train row %+v", r)
	}
	if test[0].CostUSD != nil || test[0].Scores["small"] != 0 {
		t.Fatalf("test row %+v: empty cells must stay unrecorded", test[0])
	}
}

func TestEvalConvertKeepsChoices(t *testing.T) {
	csv := "id,split,question,choices,model,score\n" +
		"q1,train,Which is prime?,\"['4', '6', '7']\",small,1\n" +
		"q1,train,Which is prime?,\"['4', '6', '7']\",big,1\n" +
		"q2,test,Capital of Peru?,,small,0\n" +
		"q2,test,Capital of Peru?,,big,1\n"
	train, test, err := ConvertOutcomes("o.csv", strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	if got := train[0].RouteText(); got != "Which is prime?\n['4', '6', '7']" {
		t.Fatalf("train row read as %q, want the question and its choices", got)
	}
	if test[0].Choices != "" || test[0].RouteText() != "Capital of Peru?" {
		t.Fatalf("test row %+v: an empty choices cell is none", test[0])
	}
}

func TestEvalConvertRefusals(t *testing.T) {
	head := "id,split,question,model,score\n"
	cases := []struct {
		name, csv, want string
	}{
		{"unknown column", "id,split,question,model,score,colour\n", `unknown column "colour"`},
		{"missing column", "id,split,question,model\n", `missing column "score"`},
		{"bad split", head + "q,dev,x,a,1\n", `o.csv:2: split "dev"`},
		{"bad score", head + "q,train,x,a,yes\n", `o.csv:2: model "a": score "yes": want a number in [0,1]`},
		{"empty score", head + "q,train,x,a,\n", `o.csv:2: model "a": the score is empty`},
		{"bad cost", "id,split,question,model,score,cost_usd\nq,train,x,a,1,cheap\n", `o.csv:2: model "a": cost_usd "cheap": want a number, or an empty cell`},
		{"line of a quoted question over two lines", head + "q,train,\"x\ny\",a,1\nr,dev,z,a,1\n", `o.csv:4: split "dev"`},
		{"twice", head + "q,train,x,a,1\nq,train,x,a,0\n", `o.csv:3: id "q" scores model "a" twice`},
		{"question changes", head + "q,train,x,a,1\nq,train,y,b,0\n", "another question"},
		{"task changes", "id,split,question,task,model,score\nq,train,x,math,a,1\nq,train,x,code,b,0\n", `o.csv:3: id "q" appears with another question, choices, task or split`},
		{"choices change", "id,split,question,choices,model,score\nq,train,x,A) 1 B) 2,a,1\nq,train,x,A) 1 B) 3,b,0\n", `o.csv:3: id "q" appears with another question, choices, task or split`},
		{"score out of range", head + "q,train,x,a,3\n", "want a number in [0,1]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ConvertOutcomes("o.csv", strings.NewReader(tc.csv))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func TestEvalConvertCandidates(t *testing.T) {
	models, err := ConvertCandidates("m.csv", strings.NewReader("name,input_price,output_price,size,context\nsmall,0.2,0.2,8B,131072\nbig,0.9,0.9,,\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(models) != 2 || models[0].SizeB != 8 || models[0].Context != 131072 || models[1].SizeB != 0 || models[1].PriceOut != 0.9 {
		t.Fatalf("models %+v", models)
	}
	if _, err := ConvertCandidates("m.csv", strings.NewReader("name,input_price,output_price,size\nx,1,1,big\n")); err == nil || !strings.Contains(err.Error(), `size "big"`) {
		t.Fatalf("bad size: %v", err)
	}
	if _, err := ConvertCandidates("m.csv", strings.NewReader("name,input_price,output_price\nx,,1\n")); err == nil {
		t.Fatal("a missing price was accepted")
	}
}

func TestEvalConvertCandidateRefusals(t *testing.T) {
	head := "name,input_price,output_price,size\n"
	cases := []struct {
		name, csv, want string
	}{
		{"prices not numbers", head + "a,0.2,0.2,7B\nb,$0.9,$0.9,70B\n", `m.csv:3: model "b": input_price "$0.9"`},
		{"one price not a number", head + "a,0.2,0.2 USD,7B\n", `m.csv:2: model "a": output_price "0.2 USD"`},
		{"unknown column", "name,input_price,output_price,sise\na,0.2,0.2,7B\n", `m.csv: unknown column "sise"`},
		{"model twice", head + "a,0.2,0.2,7B\nb,1,1,70B\na,0.3,0.3,7B\n", `m.csv:4: model "a" listed twice`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ConvertCandidates("m.csv", strings.NewReader(tc.csv))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

// TestEvalConvertReadsAByteOrderMark: spreadsheets saving "CSV UTF-8"
// write a byte order mark before the first column's name.
func TestEvalConvertReadsAByteOrderMark(t *testing.T) {
	train, _, err := ConvertOutcomes("o.csv", strings.NewReader("\ufeffid,split,question,model,score\nq,train,x,a,1\n"))
	if err != nil || len(train) != 1 || train[0].ID != "q" {
		t.Fatalf("rows %+v, err %v", train, err)
	}
	models, err := ConvertCandidates("m.csv", strings.NewReader("\ufeffname,input_price,output_price\na,1,2\n"))
	if err != nil || len(models) != 1 || models[0].Name != "a" {
		t.Fatalf("models %+v, err %v", models, err)
	}
	if _, err := ConvertCandidates("m.csv", strings.NewReader("name,input_price,output_price,context\na,1,2,1.5\n")); err == nil ||
		!strings.Contains(err.Error(), `context "1.5": want a whole number of tokens`) {
		t.Fatalf("a fractional context: err %v", err)
	}
}
