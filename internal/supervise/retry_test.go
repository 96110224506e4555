package supervise

import (
	"testing"
	"time"
)

func TestRetryDelays(t *testing.T) {
	cases := []struct {
		name   string
		tries  int
		jitter func(n int64) int64
		want   time.Duration
	}{
		{"first try, top of the range", 1, func(n int64) int64 { return n }, time.Second},
		{"first try, bottom of the range", 1, func(int64) int64 { return 0 }, 500 * time.Millisecond},
		{"second doubles", 2, func(n int64) int64 { return n }, 2 * time.Second},
		{"tenth is capped at five minutes", 10, func(n int64) int64 { return n }, 5 * time.Minute},
		{"far past the cap, bottom", 500, func(int64) int64 { return 0 }, 150 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRetry(RetryPolicy{})
			r.jitter = tc.jitter
			var got time.Duration
			for range tc.tries {
				got = r.Failed()
			}
			if got != tc.want {
				t.Fatalf("delay after %d tries: got %s, want %s", tc.tries, got, tc.want)
			}
			if r.Tries() != tc.tries {
				t.Fatalf("tries: got %d, want %d", r.Tries(), tc.tries)
			}
		})
	}
}

func TestRetryResetStartsOver(t *testing.T) {
	r := NewRetry(RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: time.Hour})
	r.jitter = func(n int64) int64 { return n }
	for range 6 {
		r.Failed()
	}
	r.Reset()
	if got := r.Failed(); got != time.Millisecond {
		t.Fatalf("first delay after reset: got %s, want 1ms", got)
	}
}

func TestRetryPolicyDefaults(t *testing.T) {
	got := RetryPolicy{}.WithDefaults()
	if want := (RetryPolicy{BaseDelay: time.Second, MaxDelay: 5 * time.Minute}); got != want {
		t.Fatalf("defaults: got %+v, want %+v", got, want)
	}
	if p := (RetryPolicy{BaseDelay: time.Minute, MaxDelay: time.Second}).WithDefaults(); p.MaxDelay != time.Minute {
		t.Fatalf("MaxDelay below BaseDelay must be raised: %+v", p)
	}
}
