package hub

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// statusOf returns the hub's status of the named server.
func statusOf(h *Hub, name string) ServerStatus {
	for _, st := range h.Servers() {
		if st.Name == name {
			return st
		}
	}
	return ServerStatus{}
}

// startedHub is a started hub of spec, closed when the test ends.
func startedHub(t *testing.T, spec ServerSpec) *Hub {
	t.Helper()
	h, err := New([]ServerSpec{spec}, Options{Logger: slog.New(slog.DiscardHandler), CallTimeout: waitLimit, ConnectTimeout: waitLimit})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	h.Start(t.Context())
	return h
}

func TestDisableEnableAndRestart(t *testing.T) {
	spec, pidfile := faultySpec(t, "flip", "ok")
	h := startedHub(t, spec)
	ctx := t.Context()
	ready := func() bool {
		_, ok := h.Snapshot().Lookup("flip__echo")
		return ok && statusOf(h, "flip").State == StateReady
	}
	waitUntil(t, "the server ready", ready, func() string { return string(statusOf(h, "flip").State) })

	if err := h.SetEnabled(ctx, "flip", false); err != nil {
		t.Fatal(err)
	}
	if st := statusOf(h, "flip"); st.State != StateDisabled {
		t.Fatalf("after disabling: %s", st.State)
	}
	if _, ok := h.Snapshot().Lookup("flip__echo"); ok {
		t.Fatal("a disabled server's tools are still in the catalog")
	}
	assertProcessesGone(t, readPids(t, pidfile))
	if _, err := h.Call(ctx, "flip__echo", json.RawMessage(`{"text":"x"}`), CallOptions{}); err == nil {
		t.Fatal("a disabled server's tool answered")
	}
	if err := h.WaitSettled(ctx); err != nil {
		t.Fatalf("a disabled server keeps the hub from settling: %v", err)
	}

	if err := h.SetEnabled(ctx, "flip", true); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the server ready again", ready, func() string { return string(statusOf(h, "flip").State) })
	before := len(readPids(t, pidfile))
	if err := h.Restart(ctx, "flip"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the restarted server ready", ready, func() string { return string(statusOf(h, "flip").State) })
	pids := readPids(t, pidfile)
	if len(pids) != before+1 {
		t.Fatalf("%d processes before the restart, %d after; want one more", before, len(pids))
	}
	assertProcessesGone(t, pids[:before])
	raw, err := h.Call(ctx, "flip__echo", json.RawMessage(`{"text":"back"}`), CallOptions{})
	if err != nil || resultText(t, raw.Raw) != "back" {
		t.Fatalf("call after restart: %v", err)
	}
}

// TestMissingCommandFailsAtOnce: a command on no PATH entry is not started
// again and again; the server fails at the first try and says what to do.
// Once the command is there, a restart brings it up.
func TestMissingCommandFailsAtOnce(t *testing.T) {
	cases := []struct {
		name     string
		absolute bool     // the command is given as an absolute path
		want     []string // in LastError
	}{
		{"a command on no PATH entry", false, []string{"faultyserver-installed-later", "not found in the server's PATH", "install it"}},
		{"an absolute path where nothing is", true, []string{"faultyserver-installed-later: no such file", "install it there"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec, pidfile := faultySpec(t, "typo", "ok")
			bin := t.TempDir()
			installed := filepath.Join(bin, testenv.Exe("faultyserver-installed-later"))
			spec.Command, spec.Env = "faultyserver-installed-later", map[string]string{"PATH": bin}
			if tc.absolute { // as a config names it, without Windows' ".exe"
				spec.Command, spec.Env = filepath.Join(bin, "faultyserver-installed-later"), nil
			}
			h := startedHub(t, spec)
			ctx := t.Context()
			if err := h.WaitSettled(ctx); err != nil {
				t.Fatal(err)
			}
			st := statusOf(h, "typo")
			if st.State != StateFailed || st.Restarts != 0 {
				t.Fatalf("want failed without a restart, got %s after %d restarts", st.State, st.Restarts)
			}
			for _, want := range tc.want {
				if !strings.Contains(st.LastError, want) {
					t.Errorf("LastError %q should contain %q", st.LastError, want)
				}
			}

			program, err := os.ReadFile(faultyServerPath(t))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(installed, program, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := h.Restart(ctx, "typo"); err != nil {
				t.Fatal(err)
			}
			waitUntil(t, "the installed server ready", func() bool { return statusOf(h, "typo").State == StateReady },
				func() string { return statusOf(h, "typo").LastError })
			if pids := readPids(t, pidfile); len(pids) != 1 {
				t.Fatalf("want one process started, got %v", pids)
			}
		})
	}
}

// TestCommandThatIsNoProgramFailsAtOnce: a command given as the path of a
// folder is not started again and again either, and the status says what
// is at the path.
func TestCommandThatIsNoProgramFailsAtOnce(t *testing.T) {
	spec, _ := faultySpec(t, "folder", "ok")
	spec.Command = t.TempDir()
	h := startedHub(t, spec)
	if err := h.WaitSettled(t.Context()); err != nil {
		t.Fatal(err)
	}
	st := statusOf(h, "folder")
	if st.State != StateFailed || st.Restarts != 0 {
		t.Fatalf("want failed without a restart, got %s after %d restarts", st.State, st.Restarts)
	}
	for _, want := range []string{spec.Command + ": is a folder, not a program", "give the path of the program itself"} {
		if !strings.Contains(st.LastError, want) {
			t.Errorf("LastError %q should contain %q", st.LastError, want)
		}
	}
}

func TestControlUnknownServer(t *testing.T) {
	h, err := New(nil, Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var unknown *UnknownServerError
	if err := h.Restart(context.Background(), "nope"); !errors.As(err, &unknown) {
		t.Errorf("restart of an unknown server: %v", err)
	}
	if err := h.SetEnabled(context.Background(), "nope", false); !errors.As(err, &unknown) {
		t.Errorf("disable of an unknown server: %v", err)
	}
}
