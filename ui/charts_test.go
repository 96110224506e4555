package ui

import (
	"reflect"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"
)

func TestSpendPerDay(t *testing.T) {
	day := func(d int, hour int) time.Time { return time.Date(2026, 11, d, hour, 0, 0, 0, time.Local) }
	tests := []struct {
		name string
		runs []RunSummary
		days int
		want []Bar
	}{
		{"empty", nil, 7, []Bar{}},
		{"sums a day", []RunSummary{{Started: day(3, 9), USD: 0.1}, {Started: day(3, 18), USD: 0.05}},
			7, []Bar{{Label: "11-03", Value: 0.15000000000000002, Text: "$0.15"}}},
		{"keeps the last days, oldest first", []RunSummary{{Started: day(5, 1), USD: 2}, {Started: day(1, 1), USD: 1}, {Started: day(4, 1), USD: 0.001}},
			2, []Bar{{Label: "11-04", Value: 0.001, Text: "$0.0010"}, {Label: "11-05", Value: 2, Text: "$2.00"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := spendPerDay(tc.runs, tc.days); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("spendPerDay = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestToolMix(t *testing.T) {
	steps := []RunStep{
		{Kind: "model", Name: "orchestrator"}, {Kind: "tool", Name: "search"}, {Kind: "observation", Name: "search"},
		{Kind: "model", Name: "orchestrator"}, {Kind: "tool", Name: "search"}, {Kind: "model", Name: "gpt-5"},
		{Kind: "answer"},
	}
	want := []Bar{{Label: "orchestrator", Value: 2, Text: "2"}, {Label: "search", Value: 2, Text: "2"}, {Label: "gpt-5", Value: 1, Text: "1"}}
	if got := toolMix(steps); !reflect.DeepEqual(got, want) {
		t.Fatalf("toolMix = %+v, want %+v", got, want)
	}
}

func TestFormatting(t *testing.T) {
	tests := []struct{ name, got, want string }{
		{"zero dollars", usd(0), "$0"},
		{"fraction of a cent", usd(0.00042), "$0.0004"},
		{"dollars", usd(3.456), "$3.46"},
		{"unknown time", wall(0), "—"},
		{"milliseconds", wall(850 * time.Millisecond), "850ms"},
		{"seconds", wall(2400 * time.Millisecond), "2.4s"},
		{"minutes", wall(185 * time.Second), "3m05s"},
		{"short text", shorten("abc", 5), "abc"},
		{"long text", shorten("abcdef", 4), "abc…"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Fatalf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}

func TestSnippetSegments(t *testing.T) {
	tests := []struct {
		name    string
		snippet string
		want    []string // text, with bold parts in [brackets]
	}{
		{"plain", "# not a heading", []string{"# not a heading"}},
		{"bold word", "the **launch** plan", []string{"the ", "[launch]", " plan"}},
		{"starts bold", "**Q3** launch", []string{"[Q3]", " launch"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, seg := range snippetSegments(tc.snippet) {
				ts := seg.(*widget.TextSegment)
				text := ts.Text
				if ts.Style.TextStyle.Bold {
					text = "[" + text + "]"
				}
				got = append(got, text)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("segments = %q, want %q", got, tc.want)
			}
		})
	}
}
