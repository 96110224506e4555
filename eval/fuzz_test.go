package eval

import (
	"math"
	"strings"
	"testing"
)

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"The Eiffel Tower", "1,000.5", "  a  an the ", "Ångström!", "\u2028x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if Normalize(n) != n {
			t.Fatalf("not idempotent: %q → %q → %q", s, n, Normalize(n))
		}
		if strings.Contains(n, "  ") || strings.TrimSpace(n) != n {
			t.Fatalf("whitespace left in %q", n)
		}
	})
}

func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"1,000", "$3.50", "50%", "3.0e2", "12 km", "-1/3", "−7.", "1e999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := ParseNumber(s)
		if !ok {
			return
		}
		if math.IsNaN(n.Value) || math.IsInf(n.Value, 0) {
			t.Fatalf("ParseNumber(%q) = %v", s, n.Value)
		}
		if !NumbersMatch(n, n, DefaultTolerance) {
			t.Fatalf("%q does not match itself", s)
		}
		_, _ = LastNumber(s)
	})
}

func FuzzParseTasks(f *testing.F) {
	f.Add([]byte(`{"id":"1","question":"q","answer":"a"}` + "\n"))
	f.Add([]byte("{\"id\":\"1\",\"question\":\"q\",\"answer\":\"a\",\"domain\":\"d\"}\n\n{\"id\":\"1\"}"))
	f.Add([]byte("[1,2]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tasks, err := ParseTasks("f.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.jsonl:") {
				t.Fatalf("error without file:line: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, tk := range tasks {
			if tk.ID == "" || tk.Question == "" || tk.Answer == "" || seen[tk.ID] {
				t.Fatalf("bad task accepted: %+v", tk)
			}
			seen[tk.ID] = true
		}
	})
}

func FuzzJournal(f *testing.F) {
	f.Add([]byte(`{"task_id":"t","policy":"p","repeat":0,"grade":{"score":1,"method":"exact"}}` + "\n"))
	f.Add([]byte("{oops\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseJournal("j.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "j.jsonl:") {
				t.Fatalf("error without file:line: %v", err)
			}
			return
		}
		for _, e := range entries {
			_ = e.Key()
		}
	})
}
