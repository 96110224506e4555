package hub

import (
	"testing"
	"time"
)

func TestServerUnavailableReadsAsEnglish(t *testing.T) {
	cases := []struct {
		name string
		err  ServerUnavailableError
		want string
	}{
		{"failed", ServerUnavailableError{Server: "bad", State: StateFailed, Reason: "gave up after 5 failures"},
			"server bad has failed: gave up after 5 failures"},
		{"starting", ServerUnavailableError{Server: "gh", State: StateStarting}, "server gh is starting"},
		{"retrying", ServerUnavailableError{Server: "late", State: StateRetrying, RetryIn: time.Second, Reason: "503"},
			"server late is retrying in 1 s: 503"},
		{"invalid", ServerUnavailableError{Server: "bad", State: StateInvalid, Reason: "c.json:2:9: bad"},
			"server bad is invalid: c.json:2:9: bad"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.err.Error(); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
}
