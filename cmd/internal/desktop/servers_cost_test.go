package desktop

import "testing"

// The Servers tab shows a server's price per call, per second of a call
// (the python sandbox), both, or "free".
func TestServerCostText(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    toolFigures
		want string
	}{
		{"free", toolFigures{}, "free"},
		{"per call", toolFigures{cost: 0.01}, "$0.01/call"},
		{"per second", toolFigures{perSecond: 0.0000083}, "$0.0000083/s"},
		{"both", toolFigures{cost: 0.002, perSecond: 0.0001}, "$0.002/call + $0.0001/s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := costText(tc.f); got != tc.want {
				t.Errorf("costText = %q, want %q", got, tc.want)
			}
		})
	}
}
