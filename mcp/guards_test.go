package mcp

import (
	"strings"
	"testing"
)

func TestOriginPolicy(t *testing.T) {
	p, err := newOriginPolicy([]string{"https://app.example.com", "http://tool.test:8080"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		origin string
		want   bool
	}{
		{"", true}, // not a browser
		{"http://localhost", true},
		{"http://localhost:3000", true},
		{"https://LOCALHOST:8443", true},
		{"http://127.0.0.1:9", true},
		{"http://127.1.2.3", true},
		{"http://[::1]:5173", true},
		{"https://app.example.com", true},
		{"https://app.example.com:443", true},
		{"HTTPS://APP.EXAMPLE.COM", true},
		{"http://tool.test:8080", true},
		{"http://tool.test", false},
		{"https://app.example.com.evil.test", false},
		{"http://localhost.evil.test", false},
		{"http://127.0.0.1.nip.io", false},
		{"https://evil.example", false},
		{"null", false},
		{"file://", false},
		{"chrome-extension://abcdef", false},
		{"http://user@localhost", false},
		{"http://localhost/path", false},
		{"http://[::ffff:7f00:1]", true}, // IPv4-mapped 127.0.0.1
		{"http://0.0.0.0", false},
	}
	for _, tt := range tests {
		if got := p.permits(tt.origin); got != tt.want {
			t.Errorf("permits(%q) = %v, want %v", tt.origin, got, tt.want)
		}
	}
}

func TestNewOriginPolicyRejectsMalformedEntries(t *testing.T) {
	for _, bad := range []string{"app.example.com", "ftp://x.test", "https://x.test/path", "*", ""} {
		if _, err := newOriginPolicy([]string{bad}); err == nil {
			t.Errorf("newOriginPolicy accepted %q", bad)
		}
	}
}

func TestIsLoopbackAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8765": true, "localhost:1": true, "[::1]:80": true, "127.9.9.9:0": true,
		"0.0.0.0:8765": false, ":8765": false, "[::]:1": false, "10.0.0.1:80": false,
		"host.example:80": false, "127.0.0.1": false,
	} {
		if got := isLoopbackAddr(addr); got != want {
			t.Errorf("isLoopbackAddr(%q) = %v, want %v", addr, got, want)
		}
	}
}

// FuzzOriginPolicy checks that an Origin header is only ever let through
// when it names this machine or an allowed origin.
func FuzzOriginPolicy(f *testing.F) {
	for _, s := range []string{"http://localhost:1", "https://app.example.com", "null", "http://[::1]",
		"http://127.0.0.1@evil.test", "http://evil.test#@localhost", "http://localhost%2eevil.test"} {
		f.Add(s)
	}
	p, err := newOriginPolicy([]string{"https://app.example.com"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, origin string) {
		if origin == "" || !p.permits(origin) {
			return
		}
		norm, ok := normalizeOrigin(origin)
		if !ok {
			t.Fatalf("permitted %q, which does not normalise", origin)
		}
		if norm != "https://app.example.com" && !isLoopbackOrigin(norm) {
			t.Fatalf("permitted %q (%s): neither loopback nor allowed", origin, norm)
		}
		host := strings.TrimPrefix(strings.TrimPrefix(norm, "http://"), "https://")
		if strings.ContainsAny(host, "@/#?") {
			t.Fatalf("permitted %q with host part %q", origin, host)
		}
	})
}
