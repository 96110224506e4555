package desktop

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/ui"
)

// This file is the one place where what the hub and the config reader say
// becomes a sentence for the Servers tab: what went wrong and what to do.
// The full text stays behind it, for "Copy details".

// plainError says err in words; a nil err stays nil.
func plainError(err error) error {
	if err == nil {
		return nil
	}
	var pe *ui.PlainError
	if errors.As(err, &pe) {
		return pe
	}
	details := err.Error()
	var problems *config.ProblemsError
	var unknown *hub.UnknownServerError
	switch {
	case errors.As(err, &problems):
		return &ui.PlainError{Summary: "The JSON has a mistake: " + problemText(problems.Problems[0]) + ".",
			Fix: "Correct it and try again.", Details: problemsText(problems)}
	case errors.As(err, &unknown):
		return &ui.PlainError{Summary: fmt.Sprintf("There is no server called %s any more.", unknown.Name),
			Fix: "The list has been refreshed.", Details: details}
	case errors.Is(err, context.Canceled):
		return &ui.PlainError{Summary: "It was cancelled before it finished.", Details: details}
	case errors.Is(err, errNoRunLog):
		return &ui.PlainError{Summary: "This toolhub keeps no run history.", Fix: "Start it with a run log folder to keep runs.", Details: details}
	case errors.Is(err, context.DeadlineExceeded):
		return &ui.PlainError{Summary: "That took too long and was given up.", Fix: "Try again in a moment.", Details: details}
	}
	return &ui.PlainError{Summary: firstSentence(details), Details: details}
}

// problemText is one config problem without a file name: "line 3,
// column 5: want a string, got a number".
func problemText(p config.Problem) string {
	if p.Line == 0 {
		return p.Message
	}
	return fmt.Sprintf("line %d, column %d: %s", p.Line, p.Col, p.Message)
}

// leftOutProblem says why a model entry of the config is not used.
func leftOutProblem(lo config.LeftOutModel) *ui.PlainError {
	return &ui.PlainError{
		Summary: "Its entry in the config has a mistake, so it is not used: " + problemText(lo.Problems[0]) + ".",
		Fix:     "Correct it in the config file (toolhub config check lists every problem).",
		Details: problemsText(&config.ProblemsError{Problems: lo.Problems}),
	}
}

func problemsText(pe *config.ProblemsError) string {
	lines := make([]string, len(pe.Problems))
	for i, p := range pe.Problems {
		lines[i] = problemText(p)
	}
	return strings.Join(lines, "\n")
}

// serverTrouble is what a server's last error means, and how to get past
// it. The hub's own words stay in Details.
var serverTrouble = []struct {
	match        []string
	summary, fix string
}{
	{[]string{"executable file not found", "no such file or directory"},
		"Its command was not found on this computer.", `Install the program, or correct "command" with Edit.`},
	{[]string{"permission denied"}, "Its command may not be run.", "Make the program executable, or correct \"command\" with Edit."},
	{[]string{"connection refused", "no such host", "dial tcp"},
		"Nothing answers at its address.", `Check that the server is running and that "url" is right (Edit).`},
	{[]string{"401", "403", "unauthorized", "forbidden"},
		"The server refused toolhub's credentials.", `Check the token in "headers" with Edit.`},
	{[]string{"transport closed", "exited", "signal: killed", "EOF"},
		"The server stopped while toolhub was talking to it.", "See the details for its own error output, then Restart."},
	{[]string{"deadline exceeded", "timed out", "timeout"},
		"The server did not answer in time.", "Restart it; if it stays slow, raise \"timeout\" with Edit."},
	{[]string{"cannot be used", "unset", "${"},
		"Its entry in the config cannot be used as written.", "Open Edit to see and correct it."},
}

// serverProblem says in words why a server is down; nil when it is not.
func serverProblem(st hub.ServerStatus) *ui.PlainError {
	if st.LastError == "" {
		return nil
	}
	details := st.LastError
	if st.StderrTail != "" {
		details += "\n\nstderr:\n" + st.StderrTail
	}
	if st.State == hub.StateInvalid {
		return &ui.PlainError{Summary: "Its entry in the config cannot be used as written.",
			Fix: "Open Edit to see what is wrong and correct it.", Details: details}
	}
	lower := strings.ToLower(st.LastError)
	for _, t := range serverTrouble {
		for _, m := range t.match {
			if strings.Contains(lower, strings.ToLower(m)) {
				return &ui.PlainError{Summary: t.summary, Fix: t.fix, Details: details}
			}
		}
	}
	return &ui.PlainError{Summary: "The server reported a problem.", Fix: "See the details, then Restart.", Details: details}
}

// firstSentence keeps the outermost part of a wrapped Go error, with a
// capital letter and a full stop.
func firstSentence(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if i := strings.Index(s, ": "); i > 0 {
		s = s[:i]
	}
	if s == "" {
		return "Something went wrong."
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
