package mcp

import (
	"fmt"
	"strings"

	"github.com/toolhub/toolhub/hub"
)

// serverLister is the part of the hub find_tools asks which servers are
// down; a catalog without it shows no down servers.
type serverLister interface {
	Servers() []hub.ServerStatus
}

// downServerFinder is the part of the hub that names the down server a
// prefixed tool name (server__tool) belongs to.
type downServerFinder interface {
	DownServer(name string) (hub.ServerStatus, bool)
}

// anyDownFinder is the part of the hub that tells cheaply whether any
// server is down.
type anyDownFinder interface {
	AnyServerDown() bool
}

// anyServerDown reports whether some server of cat may be down: true
// when cat cannot tell.
func anyServerDown(cat Catalog) bool {
	f, ok := cat.(anyDownFinder)
	return !ok || f.AnyServerDown()
}

// ofDownServer reports whether name is a tool of a server that is down, so
// that its call is answered with the server's state rather than as a tool
// that does not exist.
func ofDownServer(cat Catalog, name string) bool {
	f, ok := cat.(downServerFinder)
	if !ok {
		return false
	}
	_, down := f.DownServer(name)
	return down
}

// downServer is one server find_tools reports as down.
type downServer struct {
	Server string          `json:"server"`
	State  hub.ServerState `json:"state"`
	Reason string          `json:"reason,omitempty"`
}

// downServers lists the servers of cat that take no calls now.
func downServers(cat Catalog) []downServer {
	lister, ok := cat.(serverLister)
	if !ok {
		return nil
	}
	var down []downServer
	for _, st := range lister.Servers() {
		if st.Down() {
			down = append(down, downServer{Server: st.Name, State: st.State, Reason: st.Detail()})
		}
	}
	return down
}

// writeDown tells, after find_tools' hits, which servers' tools cannot be
// found or called now, and why.
func writeDown(b *strings.Builder, down []downServer) {
	if len(down) == 0 {
		return
	}
	fmt.Fprintf(b, "\nDown now (their tools cannot be called):\n")
	for _, d := range down {
		fmt.Fprintf(b, "- server %s is %s", d.Server, d.State)
		if d.Reason != "" {
			fmt.Fprintf(b, ": %s", d.Reason)
		}
		b.WriteString("\n")
	}
}
