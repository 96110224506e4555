package mcp

import (
	"net"
	"net/netip"
)

// Binding describes where an endpoint listens and who can reach it.
type Binding struct {
	// Addr is the address the listener holds, e.g. 127.0.0.1:8765 or
	// [::]:8765.
	Addr string
	// AllInterfaces is set when it listens on every interface (0.0.0.0 or
	// ::).
	AllInterfaces bool
	// Exposed is set when other machines may reach it: it listens on every
	// interface or on an address other than a loopback one.
	Exposed bool
	// URLs are the addresses other machines use: one per non-loopback
	// address of this host when it listens on every interface (none when
	// the host has none), otherwise the one URL. Loopback URLs are left out
	// when the endpoint is exposed.
	URLs []string
}

// Binding reports where the endpoint listens, with this host's addresses
// when it listens on every interface.
func (h *HTTPServer) Binding() Binding {
	ap, err := netip.ParseAddrPort(h.ln.Addr().String())
	if err != nil {
		return Binding{Addr: h.ln.Addr().String(), URLs: []string{h.url}}
	}
	return describeBinding(ap, h.path, hostAddrs())
}

// describeBinding is Binding for a listener on bound, given the host's
// interface addresses.
func describeBinding(bound netip.AddrPort, path string, host []netip.Addr) Binding {
	ip := bound.Addr().Unmap()
	b := Binding{Addr: bound.String(), AllInterfaces: ip.IsUnspecified()}
	b.Exposed = b.AllInterfaces || !ip.IsLoopback()
	if !b.AllInterfaces {
		b.URLs = []string{urlOf(netip.AddrPortFrom(ip, bound.Port()), path)}
		return b
	}
	v4only := ip.Is4()
	for _, a := range host {
		a = a.Unmap()
		if a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsUnspecified() || (v4only && !a.Is4()) {
			continue
		}
		b.URLs = append(b.URLs, urlOf(netip.AddrPortFrom(a, bound.Port()), path))
	}
	return b
}

func urlOf(ap netip.AddrPort, path string) string {
	return "http://" + ap.String() + path
}

// hostAddrs are the addresses of this host's interfaces; none when they
// cannot be listed.
func hostAddrs() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	out := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(ipn.IP); ok {
				out = append(out, ip.Unmap())
			}
		}
	}
	return out
}
