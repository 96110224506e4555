package hub

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// remoteServer is a remote "web" server with a fetch tool that counts the
// requests reaching it.
func remoteServer(t *testing.T) (ServerSpec, *atomic.Int64) {
	url, hits := testenv.CountingMCPServer(t, "fetch")
	return ServerSpec{Name: "web", Transport: TransportHTTP, URL: url, Locality: LocalityRemote}, hits
}

// Under local-only for the whole hub a remote server is never contacted,
// not even to initialize; lifting it connects the server, and bringing it
// back disconnects it again. Local servers are not touched.
func TestHoldRemoteKeepsRemoteServersDisconnected(t *testing.T) {
	remote, hits := remoteServer(t)
	local, _ := faultySpec(t, "flip", "ok")
	h, err := New([]ServerSpec{remote, local}, Options{Logger: testOptions().Logger, CallTimeout: waitLimit, ConnectTimeout: waitLimit})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	if err := h.HoldRemote(ctx, true); err != nil {
		t.Fatal(err)
	}
	h.Start(ctx)
	if err := h.WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the remote server got %d requests under local-only", n)
	}
	if st := statusOf(h, "web"); st.State != StateLocalOnly {
		t.Fatalf("remote server state %s, want %s", st.State, StateLocalOnly)
	}
	if st := statusOf(h, "flip"); st.State != StateReady {
		t.Fatalf("local server state %s, want ready", st.State)
	}
	if err := h.SetEnabled(ctx, "web", true); err != nil || hits.Load() != 0 {
		t.Fatalf("enabling a held server contacted it (%d requests, %v)", hits.Load(), err)
	}

	if err := h.HoldRemote(ctx, false); err != nil {
		t.Fatal(err)
	}
	if ok, err := h.WaitTool(ctx, "web__fetch"); !ok || err != nil {
		t.Fatalf("the remote tool did not come back: %v %v", ok, err)
	}
	if err := h.HoldRemote(ctx, true); err != nil {
		t.Fatal(err)
	}
	if _, ok := h.Snapshot().Lookup("web__fetch"); ok {
		t.Fatal("the remote tool stayed in the catalog under local-only")
	}
	if st := statusOf(h, "web"); st.State != StateLocalOnly {
		t.Fatalf("remote server state %s after holding again", st.State)
	}
	if _, ok := h.Snapshot().Lookup("flip__echo"); !ok {
		t.Fatal("the local server's tool left the catalog")
	}
}
