package mcp

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestResourceUpdatesOfACallAllArrive calls, again and again, a tool that
// changes a resource the client watches: the downstream's update reaches
// toolhub just as the call's result does. Every update must reach the
// client. Through mcp-go's queue alone, where the stream of the POST being
// answered could take an update and drop it, 0.2 to 5% were lost.
func TestResourceUpdatesOfACallAllArrive(t *testing.T) {
	w := newWatchedServer()
	w.srv.AddTool(mcpgo.NewTool("touch"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		w.updated("note://a")
		return mcpgo.NewToolResultText("touched"), nil
	})
	relay := NewRelay()
	h := testHub(t, relay, inProcess("watched", w.srv))
	srv := testServer(t, h, Options{Relay: relay})
	url := serveHTTP(t, srv, HTTPOptions{}).URL()
	var mu sync.Mutex
	got := 0
	alice := connectAnswering(t, url, true, func(n mcpgo.JSONRPCNotification) {
		if n.Method == mcpgo.MethodNotificationResourceUpdated {
			mu.Lock()
			got++
			mu.Unlock()
		}
	})
	subscribe(t, alice, "note://a")
	id := alice.GetTransport().(*transport.StreamableHTTP).GetSessionId()
	waitFor(t, "alice's event stream", func() bool { return srv.listens.isOpen(id) })

	// Calls side by side, so that one call's update can meet another's
	// result as well as its own.
	const callers, each = 4, 100
	const calls = callers * each
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for range each {
				var req mcpgo.CallToolRequest
				req.Params.Name = "watched__touch"
				if _, err := alice.CallTool(t.Context(), req); err != nil {
					t.Errorf("call: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	waitFor(t, "every update", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return got >= calls
	})
	mu.Lock()
	defer mu.Unlock()
	if got != calls {
		t.Errorf("%d updates for %d calls", got, calls)
	}
}

// isOpen reports whether the session's event stream is open.
func (l *listenStreams) isOpen(id string) bool {
	l.mu.Lock()
	st := l.streams[id]
	l.mu.Unlock()
	if st == nil {
		return false
	}
	select {
	case <-st.opened:
		return true
	default:
		return false
	}
}

// streamFixture is a listenStreams whose fallback records what it is
// handed.
type streamFixture struct {
	streams *listenStreams
	mu      sync.Mutex
	fellTo  []string // methods handed to the fallback
}

func newStreamFixture() *streamFixture {
	f := &streamFixture{}
	f.streams = newListenStreams(func(id string, n listenNote) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.fellTo = append(f.fellTo, id+" "+n.method)
	})
	return f
}

func (f *streamFixture) fallen() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.fellTo)
}

func getStream(id string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/mcp", nil)
	r.Header.Set("Mcp-Session-Id", id)
	return r
}

// syncRecorder is a ResponseWriter safe to read while a handler writes:
// it records the status and the writes in order.
type syncRecorder struct {
	mu     sync.Mutex
	header http.Header
	log    []string // "status OK", then each write
	fail   bool     // writes fail, as to a client that is gone
}

func newSyncRecorder() *syncRecorder { return &syncRecorder{header: http.Header{}} }

func (r *syncRecorder) Header() http.Header { return r.header }

func (r *syncRecorder) WriteHeader(status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, "status "+http.StatusText(status))
}

func (r *syncRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail {
		return 0, errors.New("connection reset")
	}
	r.log = append(r.log, string(p))
	return len(p), nil
}

func (r *syncRecorder) Flush() {}

func (r *syncRecorder) written() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.log)
}

// serveStream runs keep over a handler that opens the event stream when
// open is closed (unless openStream is false) and returns when stop is
// closed; serveStream returns once the handler is running.
func serveStream(t *testing.T, f *streamFixture, w http.ResponseWriter, openStream bool) (open, stop chan struct{}, served chan struct{}) {
	t.Helper()
	open, stop, served = make(chan struct{}), make(chan struct{}), make(chan struct{})
	running := make(chan struct{})
	go func() {
		defer close(served)
		f.streams.keep(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			close(running)
			<-open
			if openStream {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				w.(http.Flusher).Flush()
				_, _ = w.Write([]byte("event: message\ndata: {\"mcp-go\":1}\n\n"))
			}
			<-stop
		})).ServeHTTP(w, getStream("s"))
	}()
	<-running
	return open, stop, served
}

const updated = "notifications/resources/updated"

func TestListenStreamWritesAfterTheHeader(t *testing.T) {
	f := newStreamFixture()
	rec := newSyncRecorder()
	open, stop, served := serveStream(t, f, rec, true)
	if !f.streams.send("s", updated, map[string]any{"uri": "note://a"}) {
		t.Fatal("send to an open stream's session refused")
	}
	if f.streams.send("other", updated, nil) {
		t.Error("send to a session without a stream accepted")
	}
	if got := rec.written(); len(got) != 0 {
		t.Fatalf("written before the stream opened: %q", got)
	}
	close(open)
	want := `event: message` + "\n" + `data: {"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"note://a"}}` + "\n\n"
	waitFor(t, "the update", func() bool { return slices.Contains(rec.written(), want) })
	if got := rec.written(); got[0] != "status OK" {
		t.Errorf("writes %q: the header must come first", got)
	}
	close(stop)
	<-served
	if f.streams.send("s", updated, nil) {
		t.Error("send after the stream ended accepted")
	}
	if got := f.fallen(); len(got) != 0 {
		t.Errorf("fell back %q, want nothing", got)
	}
}

func TestListenStreamHandsBackWhatItCouldNotWrite(t *testing.T) {
	cases := []struct {
		name       string
		openStream bool
		fail       bool
		sends      int
		wantQueued int // sends accepted
	}{
		{"the stream never opened", false, false, 3, 3},
		{"the queue is full", false, false, listenQueue + 2, listenQueue},
		{"the client is gone", true, true, 2, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newStreamFixture()
			rec := newSyncRecorder()
			rec.fail = tc.fail
			open, stop, served := serveStream(t, f, rec, tc.openStream)
			queued := 0
			for range tc.sends {
				if f.streams.send("s", updated, nil) {
					queued++
				}
			}
			if queued != tc.wantQueued {
				t.Errorf("%d of %d sends queued, want %d", queued, tc.sends, tc.wantQueued)
			}
			close(open)
			close(stop)
			<-served
			if got := f.fallen(); len(got) != queued || (queued > 0 && got[0] != "s "+updated) {
				t.Errorf("fell back %q, want the %d queued", got, queued)
			}
		})
	}
}

// TestDeleteEndsTheSessionsEventStream: a DELETE that ends a session ends
// the GET event stream it had open, rather than leaving it open until the
// client goes.
func TestDeleteEndsTheSessionsEventStream(t *testing.T) {
	srv := testServer(t, testHub(t, nil), Options{})
	h := serveHTTP(t, srv, HTTPOptions{Token: testToken})
	raw := newRawSession(t, h.URL(), testToken)
	raw.initialize()
	session := map[string]string{"Mcp-Session-Id": raw.sessionID, "Mcp-Protocol-Version": mcpgo.LATEST_LEGACY_PROTOCOL_VERSION}

	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, h.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Accept", "text/event-stream")
	for k, v := range session {
		req.Header.Set(k, v)
	}
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("GET: %s", stream.Status)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, stream.Body)
		ended <- err
	}()

	if resp, body := rawRequest(t, http.MethodDelete, h.URL(), session, ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE: %s %s", resp.Status, body)
	}
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("the stream ended with %v, want its end", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("the event stream stayed open after its session was deleted")
	}
}
