package hub

import "testing"

func TestPriceText(t *testing.T) {
	tests := []struct {
		name               string
		perCall, perSecond float64
		want               string
	}{
		{"free", 0, 0, "free"},
		{"per call", 0.01, 0, "$0.01/call"},
		{"per second", 0, 0.0000083, "$0.0000083/s"},
		{"both", 0.001, 0.0002, "$0.001/call + $0.0002/s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PriceText(tt.perCall, tt.perSecond, "/call", "/s"); got != tt.want {
				t.Errorf("PriceText = %q, want %q", got, tt.want)
			}
		})
	}
}
