package modelhost

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/testenv"
)

// buildFakeModelServer compiles testdata/fakemodelserver into a temp dir
// that lives as long as t.
func buildFakeModelServer(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), testenv.Exe("fakemodelserver"))
	cmd := exec.Command("go", "build", "-o", path, "./testdata/fakemodelserver")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build fakemodelserver: %v\n%s", err, out)
	}
	return path
}

// fakeHost builds a host for the fake server on a free port with short
// timings; the server gets args after its address.
func fakeHost(t *testing.T, bin string, startTimeout time.Duration, restart RestartPolicy, args ...string) *Host {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t))
	h, err := New(Spec{
		Command:      append([]string{bin, "-addr", addr}, args...),
		HealthURL:    "http://" + addr + "/health",
		StartTimeout: startTimeout,
		PollInterval: 20 * time.Millisecond,
		StopGrace:    time.Second,
		Restart:      restart,
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

var quickRestarts = RestartPolicy{MaxFailures: 3, Window: time.Minute, BaseDelay: 10 * time.Millisecond, MaxDelay: 20 * time.Millisecond}

func TestModelHostSupervisesTheFakeServer(t *testing.T) {
	bin := buildFakeModelServer(t)
	t.Run("slow load then healthy", func(t *testing.T) {
		h := fakeHost(t, bin, time.Minute, quickRestarts, "-load-delay", "400ms")
		h.Start(context.Background())
		defer h.Stop()
		if err := waitHealthy(t, h); err != nil {
			t.Fatal(err)
		}
		// The output pipe is drained on its own goroutine, so the line
		// printed before health turned 200 may reach the tail just after.
		st := waitTail(t, h, "model loaded", time.Minute)
		if st.State != Healthy || st.Restarts != 0 {
			t.Fatalf("status %+v", st)
		}
	})
	t.Run("crash is restarted then given up", func(t *testing.T) {
		h := fakeHost(t, bin, time.Minute, quickRestarts, "-crash-after", "300ms")
		h.Start(context.Background())
		defer h.Stop()
		waitState(t, h, Failed, time.Minute)
		st := waitTail(t, h, "simulated crash", time.Minute)
		if st.Restarts != quickRestarts.MaxFailures-1 {
			t.Errorf("restarts %d, want %d", st.Restarts, quickRestarts.MaxFailures-1)
		}
		if !strings.Contains(st.LastError, "gave up after 3 failures") {
			t.Fatalf("status %+v", st)
		}
	})
	t.Run("never healthy hits the deadline", func(t *testing.T) {
		h := fakeHost(t, bin, 500*time.Millisecond, quickRestarts, "-never-healthy", "-spawn-child")
		h.Start(context.Background())
		defer h.Stop()
		err := waitHealthy(t, h)
		if err == nil || !strings.Contains(err.Error(), "did not answer 200 within 500ms") ||
			!strings.Contains(err.Error(), "fakemodelserver: loading") {
			t.Fatalf("err %v, want the deadline with the output tail", err)
		}
		if st := h.Status(); st.State != Failed || st.Restarts != 0 {
			t.Fatalf("status %+v", st)
		}
		assertNoDescendants(t)
	})
	t.Run("stop kills the process group", func(t *testing.T) {
		h := fakeHost(t, bin, time.Minute, quickRestarts, "-spawn-child")
		h.Start(context.Background())
		if err := waitHealthy(t, h); err != nil {
			t.Fatal(err)
		}
		if kids := testenv.Descendants(os.Getpid()); len(kids) < 2 {
			t.Fatalf("want the server and its child running, got pids %v", kids)
		}
		h.Stop()
		if st := h.Status(); st.State != Stopped {
			t.Fatalf("status after stop %+v", st)
		}
		assertNoDescendants(t)
	})
}

func TestModelHostLeavesARunningServerAlone(t *testing.T) {
	running := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") }))
	defer running.Close()
	h, err := New(Spec{Command: []string{"no-such-model-server-xyz"}, HealthURL: running.URL + "/health",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h.Start(context.Background())
	if err := waitHealthy(t, h); err != nil {
		t.Fatal(err)
	}
	if st := h.Status(); st.State != External || st.PID != 0 {
		t.Fatalf("status %+v", st)
	}
	h.Stop()
	if st := h.Status(); st.State != Stopped {
		t.Fatalf("status after stop %+v", st)
	}
}

func TestModelHostCommandNotFound(t *testing.T) {
	h, err := New(Spec{Command: []string{"no-such-model-server-xyz"}, HealthURL: "http://127.0.0.1:1/health",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	h.Start(context.Background())
	defer h.Stop()
	if err := waitHealthy(t, h); err == nil || !strings.Contains(err.Error(), "executable file not found") {
		t.Fatalf("err %v", err)
	}
}

func TestNewModelHostRejectsBadSpecs(t *testing.T) {
	cases := []struct {
		name string
		spec Spec
		want string
	}{
		{"no command", Spec{HealthURL: "http://127.0.0.1:8000/health"}, "no command"},
		{"bad health URL", Spec{Command: []string{"vllm"}, HealthURL: "127.0.0.1:8000"}, "not an http(s) URL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func waitHealthy(t *testing.T, h *Host) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return h.WaitHealthy(ctx)
}

// waitState polls until h reaches state.
func waitState(t *testing.T, h *Host, state State, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for h.Status().State != state {
		if time.Now().After(deadline) {
			t.Fatalf("state %s after %s, want %s", h.Status().State, within, state)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitTail polls until h's output tail holds want and returns that status.
func waitTail(t *testing.T, h *Host, want string, within time.Duration) Status {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		st := h.Status()
		if strings.Contains(st.StderrTail, want) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("output tail after %s lacks %q: %+v", within, want, st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// assertNoDescendants fails when a process started by the test outlived it.
func assertNoDescendants(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		kids := testenv.Descendants(os.Getpid())
		if len(kids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left behind: %v", kids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
