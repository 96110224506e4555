package httpstop

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"slices"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// shutdownLimit is less than the five seconds http.Server.Shutdown waits
// for a new connection on its own, so a Shutdown that waits for one fails.
const shutdownLimit = 3 * time.Second

// TestShutdownClosesConnectionsThatNeverSentARequest holds one request in
// flight and one connection that sends nothing, as a client's spare dial
// does. Shutdown must close the spare connection while the request still
// runs, let the request finish, and return before its deadline.
func TestShutdownClosesConnectionsThatNeverSentARequest(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	srv := &http.Server{ReadHeaderTimeout: time.Minute, Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		close(entered)
		<-release
		_, _ = io.WriteString(w, "finished")
	})}
	tracker := Track(srv)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	answer := make(chan string, 1)
	go func() {
		res, err := http.Get("http://" + ln.Addr().String())
		if err != nil {
			answer <- err.Error()
			return
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		answer <- string(body)
	}()
	<-entered
	spare, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer spare.Close()
	waitUntil(t, func() bool { return tracker.Waiting() == 1 })

	ctx, cancel := context.WithTimeout(context.Background(), shutdownLimit)
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- srv.Shutdown(ctx) }()
	if err := spare.SetReadDeadline(time.Now().Add(2 * shutdownLimit)); err != nil {
		t.Fatal(err)
	}
	if _, err := spare.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("reading the spare connection during the shutdown = %v, want EOF", err)
	}
	close(release)
	if got := <-answer; got != "finished" {
		t.Errorf("the request in flight got %q, want it answered", got)
	}
	if err := <-stopped; err != nil {
		t.Errorf("Shutdown = %v, want nil: it waited for the spare connection", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve = %v", err)
	}
	if n := tracker.Waiting(); n != 0 {
		t.Errorf("Waiting after the stop = %d", n)
	}
}

func TestTrackCallsTheServersOwnHook(t *testing.T) {
	var states []http.ConnState
	srv := &http.Server{ConnState: func(_ net.Conn, s http.ConnState) { states = append(states, s) }}
	tracker := Track(srv)
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	srv.ConnState(a, http.StateNew)
	if tracker.Waiting() != 1 {
		t.Fatalf("Waiting after StateNew = %d, want 1", tracker.Waiting())
	}
	srv.ConnState(a, http.StateActive)
	if tracker.Waiting() != 0 {
		t.Fatalf("Waiting after StateActive = %d, want 0", tracker.Waiting())
	}
	if want := []http.ConnState{http.StateNew, http.StateActive}; !slices.Equal(states, want) {
		t.Errorf("the server's own hook saw %v, want %v", states, want)
	}
}

// waitUntil polls cond until it holds, for at most a minute.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("gave up waiting")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestAConnectionAcceptedAsTheStopBeginsIsClosed: Shutdown runs its
// hooks right after closing the listeners, while Serve may still be
// handing over a connection it had just accepted. That connection reaches
// StateNew after the sweep, and must be closed then, not left to hold
// Shutdown for five seconds.
func TestAConnectionAcceptedAsTheStopBeginsIsClosed(t *testing.T) {
	srv := &http.Server{}
	tracker := Track(srv)
	tracker.closeAll() // what Shutdown runs once it has closed the listeners
	server, client := net.Pipe()
	defer client.Close()
	srv.ConnState(server, http.StateNew) // Serve's hook for the conn it had just accepted
	// The client's end of a pipe closed on the other side refuses a
	// deadline or reads EOF at once; an open one would wait out the
	// deadline.
	err := client.SetReadDeadline(time.Now().Add(shutdownLimit))
	if err == nil {
		_, err = client.Read(make([]byte, 1))
	}
	if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("the late connection: %v; want it closed", err)
	}
	if n := tracker.Waiting(); n != 0 {
		t.Fatalf("%d connections still tracked after the stop", n)
	}
}
