package hub

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrClosed is returned by calls made after the hub was closed.
var ErrClosed = errors.New("hub is closed")

// UnknownToolError is returned when a call names no tool in the catalog.
type UnknownToolError struct {
	Name        string
	Suggestions []string // the closest catalog names, best first
}

func (e *UnknownToolError) Error() string {
	if len(e.Suggestions) == 0 {
		return fmt.Sprintf("unknown tool %q", e.Name)
	}
	return fmt.Sprintf("unknown tool %q (did you mean %s?)", e.Name, strings.Join(e.Suggestions, ", "))
}

// FieldError is one reason a call's arguments do not match the tool's schema.
type FieldError struct {
	Path    string `json:"path"` // JSON pointer into the arguments, "" for the root
	Message string `json:"message"`
}

// InvalidArgumentsError is returned when a call's arguments fail the tool's
// input schema; the call is never forwarded.
type InvalidArgumentsError struct {
	Tool   string
	Fields []FieldError
}

func (e *InvalidArgumentsError) Error() string {
	parts := make([]string, 0, len(e.Fields))
	for _, f := range e.Fields {
		path := f.Path
		if path == "" {
			path = "(arguments)"
		}
		parts = append(parts, path+": "+f.Message)
	}
	return fmt.Sprintf("invalid arguments for %s: %s", e.Tool, strings.Join(parts, "; "))
}

// ServerUnavailableError is returned when the server owning a tool cannot take
// calls: it is starting, restarting after a crash, waits for sign-in, or
// has failed.
type ServerUnavailableError struct {
	Server string
	State  ServerState
	Reason string
	// RetryIn is how long until a retrying server is tried again.
	RetryIn time.Duration
}

// Unavailable explains why the server of st takes no calls.
func Unavailable(st ServerStatus) *ServerUnavailableError {
	e := &ServerUnavailableError{Server: st.Name, State: st.State, Reason: st.LastError}
	if st.State == StateRetrying && !st.NextRetry.IsZero() {
		e.RetryIn = max(time.Until(st.NextRetry), 0)
	}
	return e
}

func (e *ServerUnavailableError) Error() string {
	if e.State == StateNeedsSignIn {
		return "server " + e.Server + ": " + e.Reason
	}
	msg := fmt.Sprintf("server %s is %s", e.Server, e.State)
	switch e.State {
	case StateRetrying:
		msg += " in " + RetryText(e.RetryIn)
	case StateFailed:
		msg = fmt.Sprintf("server %s has failed", e.Server)
	}
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

// CallTimeoutError is returned when a downstream call outlives its timeout.
type CallTimeoutError struct {
	Tool    string
	Timeout string
}

func (e *CallTimeoutError) Error() string {
	return fmt.Sprintf("call to %s timed out after %s", e.Tool, e.Timeout)
}

// RetryText says how long until a retry, in whole seconds ("30 s").
func RetryText(d time.Duration) string {
	return fmt.Sprintf("%d s", int((d+time.Second-1)/time.Second))
}
