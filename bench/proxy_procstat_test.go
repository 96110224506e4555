package bench

import (
	"os"
	"testing"
	"time"
)

func TestParseStatCPUTicks(t *testing.T) {
	tests := []struct {
		name string
		stat string
		want int64
		ok   bool
	}{
		{"plain", "42 (toolhub) S 1 42 42 0 -1 4194560 100 0 0 0 250 37 0 0 20 0 8 0 1000 1 2", 287, true},
		{"name with spaces and parens", "7 (a b) (c)) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 5 6 7", 7, true},
		{"too short", "7 (x) R 1 2 3", 0, false},
		{"no name", "7 x R 1 2 3 4 5 6 7 8 9 10 11 12 13", 0, false},
		{"negative", "7 (x) R 1 7 7 0 -1 0 0 0 0 0 -3 4 0", 0, false},
		{"not a number", "7 (x) R 1 7 7 0 -1 0 0 0 0 0 a 4 0", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStatCPUTicks([]byte(tt.stat))
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("parseStatCPUTicks = %d, %v; want %d, ok=%v", got, err, tt.want, tt.ok)
			}
		})
	}
}

func TestParseStatusRSS(t *testing.T) {
	tests := []struct {
		name, status string
		want         int64
		ok           bool
	}{
		{"usual", "Name:\ttoolhub\nVmPeak:\t  9000 kB\nVmRSS:\t   12345 kB\nThreads:\t8\n", 12345 * 1024, true},
		{"missing", "Name:\tx\n", 0, false},
		{"no unit", "VmRSS:\t12\n", 0, false},
		{"garbage", "VmRSS:\tlots kB\n", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStatusRSS([]byte(tt.status))
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("parseStatusRSS = %d, %v; want %d, ok=%v", got, err, tt.want, tt.ok)
			}
		})
	}
}

func TestParsePSTime(t *testing.T) {
	tests := []struct {
		name, in string
		want     time.Duration
		ok       bool
	}{
		{"macOS minutes", "0:00.12", 120 * time.Millisecond, true},
		{"macOS many minutes", "123:04.50", 123*time.Minute + 4500*time.Millisecond, true},
		{"BSD hours", "01:02:03", time.Hour + 2*time.Minute + 3*time.Second, true},
		{"days", "2-03:00:01", 51*time.Hour + time.Second, true},
		{"seconds alone", "12", 0, false},
		{"seconds over 59", "0:75", 0, false},
		{"negative", "-1:00", 0, false},
		{"garbage", "a:b", 0, false},
		{"too many fields", "1:2:3:4", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePSTime(tt.in)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("parsePSTime(%q) = %v, %v; want %v, ok=%v", tt.in, got, err, tt.want, tt.ok)
			}
		})
	}
}

func FuzzParsePSTime(f *testing.F) {
	f.Add("0:00.12")
	f.Add("2-03:00:01")
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := parsePSTime(s); err == nil && d < 0 {
			t.Errorf("negative time %v from %q", d, s)
		}
	})
}

// TestOwnProcessFigures reads this process's CPU time and resident memory
// the way this system allows (/proc, ps or the Windows API).
func TestOwnProcessFigures(t *testing.T) {
	if _, err := processCPU(os.Getpid()); err != nil {
		t.Error(err)
	}
	rss, err := processRSS(os.Getpid())
	if err != nil || rss <= 0 {
		t.Errorf("own RSS = %d, %v", rss, err)
	}
}

func FuzzParseStatCPUTicks(f *testing.F) {
	f.Add([]byte("42 (toolhub) S 1 42 42 0 -1 4194560 100 0 0 0 250 37 0 0"))
	f.Add([]byte("1 ()) ) R"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if ticks, err := parseStatCPUTicks(data); err == nil && ticks < 0 {
			t.Errorf("negative ticks %d from %q", ticks, data)
		}
	})
}

func FuzzParseStatusRSS(f *testing.F) {
	f.Add([]byte("VmRSS:\t 100 kB\n"))
	f.Add([]byte("VmRSS: 99999999999999999999 kB"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if rss, err := parseStatusRSS(data); err == nil && rss < 0 {
			t.Errorf("negative RSS %d from %q", rss, data)
		}
	})
}
