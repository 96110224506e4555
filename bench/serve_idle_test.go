package bench

import (
	"strings"
	"testing"
)

func TestParseSmapsRollup(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		want    IdleReport
		wantErr string
	}{
		{"kernel 6", "00400000-7ffd [rollup]\nRss:               26116 kB\nPss:               26110 kB\nAnonymous:          5808 kB\nSwap: 0 kB\n",
			IdleReport{RSS: 26116 << 10, Anonymous: 5808 << 10, File: (26116 - 5808) << 10}, ""},
		{"no anonymous line", "Rss: 10 kB\n", IdleReport{}, "no Rss or no Anonymous"},
		{"garbage number", "Rss: ten kB\nAnonymous: 1 kB\n", IdleReport{}, "smaps_rollup Rss"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSmapsRollup([]byte(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}
