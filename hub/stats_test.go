package hub

import (
	"sync"
	"testing"
	"time"
)

func TestStatsRecord(t *testing.T) {
	type sample struct {
		d      time.Duration
		failed bool
	}
	cases := []struct {
		name    string
		samples []sample
		want    StatsView
	}{
		{"never called", nil, StatsView{}},
		{"first sample sets the average", []sample{{80 * time.Millisecond, false}},
			StatsView{Calls: 1, Latency: 80 * time.Millisecond}},
		{"later samples move it by a fifth", []sample{{100 * time.Millisecond, false}, {200 * time.Millisecond, true}},
			StatsView{Calls: 2, Failures: 1, Latency: 120 * time.Millisecond}},
		{"three samples", []sample{{100 * time.Millisecond, true}, {200 * time.Millisecond, true}, {20 * time.Millisecond, false}},
			StatsView{Calls: 3, Failures: 2, Latency: 100 * time.Millisecond}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s ToolStats
			for _, smp := range tc.samples {
				s.Record(smp.d, smp.failed)
			}
			if got := s.View(); got != tc.want {
				t.Errorf("View() = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestStatsConcurrentRecord(t *testing.T) {
	var s ToolStats
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				s.Record(time.Millisecond, (g+i)%2 == 0)
				s.View()
			}
		})
	}
	wg.Wait()
	v := s.View()
	if v.Calls != 4000 || v.Failures != 2000 || v.Latency != time.Millisecond {
		t.Errorf("View() = %+v, want 4000 calls, 2000 failures, 1ms", v)
	}
}
