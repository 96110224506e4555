package policies

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestParsePreferencesGolden reads every testdata/preferences/*.json and
// compares the canonical document, or the error, with its golden file.
func TestParsePreferencesGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "preferences", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no preference files: %v", err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var got []byte
			p, err := ParsePreferences(name+".json", data)
			if err != nil {
				got = []byte("error:\n" + err.Error() + "\n")
			} else if got, err = EncodePreferences(p); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "preferences/"+name+".golden", got)
		})
	}
}

func TestValidateListsEveryProblem(t *testing.T) {
	p := Preferences{Privacy: "cloud", CostWeight: 2, LatencyWeight: -1, MaxTurns: 51, BudgetUSD: -1, Deadline: -1,
		Tools: map[string]Weight{"x*": WeightOff}, Models: map[string]Weight{"m": "maybe"}}
	var ve *ValidationError
	if err := p.Validate(); !errors.As(err, &ve) {
		t.Fatalf("want a ValidationError, got %v", err)
	}
	var paths []string
	for _, pr := range ve.Problems {
		paths = append(paths, pr.Path)
	}
	want := "privacy cost_weight latency_weight tools[\"x*\"] models[\"m\"] budget_usd deadline max_turns"
	if got := strings.Join(paths, " "); got != want {
		t.Fatalf("paths %q, want %q", got, want)
	}
}

func TestDefaultsAreValid(t *testing.T) {
	for _, p := range []Preferences{DefaultPreferences(), Unrestricted()} {
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDurationJSON(t *testing.T) {
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{`"90s"`, 90 * time.Second, true},
		{`"10m"`, 10 * time.Minute, true},
		{`""`, 0, true},
		{`0`, 0, true},
		{`"1h30m"`, 90 * time.Minute, true},
		{`90`, 0, false},
		{`"soon"`, 0, false},
	}
	for _, tc := range cases {
		var d Duration
		err := json.Unmarshal([]byte(tc.in), &d)
		if (err == nil) != tc.ok || (tc.ok && time.Duration(d) != tc.want) {
			t.Errorf("%s: got %s, %v", tc.in, d, err)
		}
	}
	b, err := json.Marshal(Duration(90 * time.Second))
	if err != nil || string(b) != `"1m30s"` {
		t.Fatalf("marshal: %s %v", b, err)
	}
}

func FuzzParsePreferences(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "preferences", "*.json"))
	for _, path := range files {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePreferences("fuzz.json", data)
		if err != nil {
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("parsed preferences do not validate: %v", err)
		}
		again, err := EncodePreferences(p)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParsePreferences("again.json", again)
		if err != nil || !back.equal(p) {
			t.Fatalf("round trip changed %+v into %+v (%v)", p, back, err)
		}
	})
}
