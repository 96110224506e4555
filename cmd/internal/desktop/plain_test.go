package desktop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/ui"
)

func TestPlainErrorSaysWhatAndHow(t *testing.T) {
	_, problems := config.ParseSnippet([]byte("{\n  \"a\": {\"command\": }\n}"), "")
	cases := []struct {
		name    string
		err     error
		summary string
		hidden  string // must not be in the sentence
		details string // must be in the details
	}{
		{"config problem", fmt.Errorf("import servers: %w", problems), "The JSON has a mistake: line 2, column", "import servers", "line 2"},
		{"unknown server", fmt.Errorf("restart: %w", &hub.UnknownServerError{Name: "gone"}), "There is no server called gone", "restart", "gone"},
		{"timeout", fmt.Errorf("reload config: %w", context.DeadlineExceeded), "That took too long", "reload", "deadline"},
		{"wrapped chain", errors.New("import servers: [everything: already in the config] are already configured"), "Import servers.", "[", "already in the config"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var pe *ui.PlainError
			if !errors.As(plainError(tc.err), &pe) {
				t.Fatal("not a PlainError")
			}
			if !strings.HasPrefix(pe.Summary, tc.summary) || strings.Contains(pe.Summary+pe.Fix, tc.hidden) {
				t.Fatalf("summary %q fix %q; want %q… without %q", pe.Summary, pe.Fix, tc.summary, tc.hidden)
			}
			if !strings.Contains(pe.Details, tc.details) {
				t.Fatalf("details %q lack %q", pe.Details, tc.details)
			}
		})
	}
	if plainError(nil) != nil {
		t.Fatal("nil became an error")
	}
}

func TestServerProblemInWords(t *testing.T) {
	cases := []struct {
		lastError, stderr, summary string
	}{
		{"transport error: transport closed", "Error: Cannot find module 'x'", "The server stopped while toolhub was talking to it."},
		{`start: exec: "npx": executable file not found in $PATH`, "", "Its command was not found on this computer."},
		{"initialize: dial tcp 127.0.0.1:9: connect: connection refused", "", "Nothing answers at its address."},
		{"initialize: 401 Unauthorized", "", "The server refused toolhub's credentials."},
		{"initialize: context deadline exceeded", "", "The server did not answer in time."},
		{"something new", "", "The server reported a problem."},
	}
	for _, tc := range cases {
		t.Run(tc.summary, func(t *testing.T) {
			pe := serverProblem(hub.ServerStatus{LastError: tc.lastError, StderrTail: tc.stderr})
			if pe == nil || pe.Summary != tc.summary || pe.Fix == "" {
				t.Fatalf("got %+v, want %q with a fix", pe, tc.summary)
			}
			if !strings.Contains(pe.Details, tc.lastError) || !strings.Contains(pe.Details, tc.stderr) {
				t.Fatalf("details %q lack the error or stderr", pe.Details)
			}
		})
	}
	invalid := serverProblem(hub.ServerStatus{State: hub.StateInvalid, LastError: "config.json:3:5: env.TOKEN: ${TOKEN} is not set"})
	if invalid == nil || !strings.HasPrefix(invalid.Summary, "Its entry in the config") || !strings.Contains(invalid.Details, "TOKEN") {
		t.Fatalf("an invalid entry is said as %+v", invalid)
	}
	if serverProblem(hub.ServerStatus{State: hub.StateReady}) != nil {
		t.Fatal("a healthy server has a problem")
	}
}

func TestSkippedInWords(t *testing.T) {
	got := skippedInWords([]string{"everything: already in the config", `mem: duplicate of "memory"`, "x: invalid: no command"})
	want := []string{"everything is already one of your servers.", "mem runs the same thing as memory, which you already have.",
		"x cannot be used: no command."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q", got)
	}
}
