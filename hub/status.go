package hub

import "time"

// ServerState is where a downstream server is in its life.
type ServerState string

// The states a downstream server moves through.
const (
	StateStarting   ServerState = "starting"   // connecting or initializing
	StateReady      ServerState = "ready"      // tools listed, calls accepted
	StateRestarting ServerState = "restarting" // crashed; waiting out the backoff
	StateRetrying   ServerState = "retrying"   // a remote server not reached; NextRetry says when
	// StateNeedsSignIn: a remote server that wants the user to sign in
	// (OAuth); LastError says how. It is not tried again until a sign-in
	// is stored or it is restarted.
	StateNeedsSignIn ServerState = "needs-sign-in"
	StateFailed      ServerState = "failed"  // gave up; LastError says why
	StateInvalid     ServerState = "invalid" // its config entry cannot be used; LastError says why
	StateStopped     ServerState = "stopped"
	StateDisabled    ServerState = "disabled" // turned off while toolhub runs
	// StateLocalOnly: a remote server kept disconnected while local-only is
	// in force for the whole hub (HoldRemote).
	StateLocalOnly ServerState = "local-only"
)

// ServerStatus is a point-in-time view of one downstream server.
type ServerStatus struct {
	Name       string      `json:"name"`
	Transport  Transport   `json:"transport"`
	Locality   Locality    `json:"locality"`
	State      ServerState `json:"state"`
	Tools      int         `json:"tools"`
	Restarts   int         `json:"restarts"`
	LastError  string      `json:"lastError,omitempty"`
	StderrTail string      `json:"stderrTail,omitempty"` // last 2 KiB of a stdio child's stderr
	Since      time.Time   `json:"since"`                // when State was entered
	NextRetry  time.Time   `json:"nextRetry,omitzero"`   // when a retrying server is tried again
	// ClientSessions is how many clients have a session of their own (a
	// server that uses its clients' roots).
	ClientSessions int `json:"clientSessions,omitempty"`
}

// Down reports whether the server takes no calls and is not about to: it
// failed, is retrying, needs sign-in, invalid, disabled, stopped or held local-only.
func (s ServerStatus) Down() bool {
	switch s.State {
	case StateReady, StateStarting, StateRestarting:
		return false
	}
	return true
}

// Detail says what is wrong with the server in one line: for a retrying
// server "retrying in N s: reason", else LastError.
func (s ServerStatus) Detail() string {
	if s.State != StateRetrying || s.NextRetry.IsZero() {
		return s.LastError
	}
	return "retrying in " + RetryText(max(time.Until(s.NextRetry), 0)) + ": " + s.LastError
}
