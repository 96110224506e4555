package supervise

import (
	"testing"
	"time"
)

func TestRestartPolicyDefaults(t *testing.T) {
	got := RestartPolicy{}.WithDefaults()
	want := RestartPolicy{MaxFailures: 5, Window: 60 * time.Second, BaseDelay: 200 * time.Millisecond, MaxDelay: 10 * time.Second}
	if got != want {
		t.Fatalf("defaults: got %+v, want %+v", got, want)
	}
	if p := (RestartPolicy{BaseDelay: time.Second, MaxDelay: time.Millisecond}).WithDefaults(); p.MaxDelay != time.Second {
		t.Fatalf("MaxDelay below BaseDelay must be raised: %+v", p)
	}
}

func TestFailureLogDelayCeilings(t *testing.T) {
	cases := []struct {
		name     string
		failures int
		want     time.Duration
	}{
		{"first failure", 1, 200 * time.Millisecond},
		{"second doubles", 2, 400 * time.Millisecond},
		{"fourth", 4, 1600 * time.Millisecond},
		{"capped", 9, 10 * time.Second},
		{"far past the cap", 200, 10 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFailureLog(RestartPolicy{MaxFailures: 1000, Window: time.Hour})
			f.jitter = func(n int64) int64 { return n } // the ceiling itself
			now := time.Unix(1000, 0)
			for i := range tc.failures {
				f.Record(now.Add(time.Duration(i) * time.Millisecond))
			}
			if got := f.Delay(); got != tc.want {
				t.Fatalf("delay after %d failures: got %s, want %s", tc.failures, got, tc.want)
			}
		})
	}
}

func TestFailureLogJitterStaysUnderCeiling(t *testing.T) {
	f := NewFailureLog(RestartPolicy{})
	f.Record(time.Unix(1000, 0))
	f.Record(time.Unix(1001, 0))
	for range 200 {
		if d := f.Delay(); d < 0 || d > 400*time.Millisecond {
			t.Fatalf("jittered delay %s outside [0, 400ms]", d)
		}
	}
}

func TestFailureLogWindow(t *testing.T) {
	f := NewFailureLog(RestartPolicy{MaxFailures: 3, Window: time.Minute})
	start := time.Unix(1000, 0)
	steps := []struct {
		at        time.Duration
		recent    int
		exhausted bool
	}{
		{0, 1, false},
		{10 * time.Second, 2, false},
		{65 * time.Second, 2, false}, // the first one has aged out
		{70 * time.Second, 2, false}, // and so has the second
		{71 * time.Second, 3, true},
	}
	for _, s := range steps {
		if got := f.Record(start.Add(s.at)); got != s.recent || f.Exhausted() != s.exhausted {
			t.Fatalf("at %s: recent %d exhausted %v, want %d %v", s.at, got, f.Exhausted(), s.recent, s.exhausted)
		}
	}
}
