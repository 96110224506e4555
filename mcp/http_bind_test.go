package mcp

import (
	"net/netip"
	"slices"
	"testing"
)

func TestDescribeBinding(t *testing.T) {
	host := []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("192.0.2.7"),
		netip.MustParseAddr("::1"), netip.MustParseAddr("fe80::1"), netip.MustParseAddr("2001:db8::7")}
	tests := []struct {
		name        string
		bound       string
		wantAll     bool
		wantExposed bool
		wantURLs    []string
	}{
		{"loopback", "127.0.0.1:8765", false, false, []string{"http://127.0.0.1:8765/mcp"}},
		{"IPv6 loopback", "[::1]:8765", false, false, []string{"http://[::1]:8765/mcp"}},
		{"a LAN address", "192.0.2.7:8765", false, true, []string{"http://192.0.2.7:8765/mcp"}},
		{"all IPv4 interfaces", "0.0.0.0:8765", true, true, []string{"http://192.0.2.7:8765/mcp"}},
		{"all interfaces", "[::]:8765", true, true, []string{"http://192.0.2.7:8765/mcp", "http://[2001:db8::7]:8765/mcp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := describeBinding(netip.MustParseAddrPort(tt.bound), "/mcp", host)
			if b.AllInterfaces != tt.wantAll || b.Exposed != tt.wantExposed || !slices.Equal(b.URLs, tt.wantURLs) {
				t.Errorf("binding = %+v, want all interfaces %v, exposed %v, URLs %v", b, tt.wantAll, tt.wantExposed, tt.wantURLs)
			}
		})
	}
	if b := describeBinding(netip.MustParseAddrPort("0.0.0.0:1"), "/mcp", nil); !b.AllInterfaces || len(b.URLs) != 0 {
		t.Errorf("a host without addresses: %+v", b)
	}
}
