package hub

import "time"

// ServerState is where a downstream server is in its life.
type ServerState string

// The states a downstream server moves through.
const (
	StateStarting   ServerState = "starting"   // connecting or initializing
	StateReady      ServerState = "ready"      // tools listed, calls accepted
	StateRestarting ServerState = "restarting" // crashed; waiting out the backoff
	StateFailed     ServerState = "failed"     // gave up; LastError says why
	StateStopped    ServerState = "stopped"
	StateDisabled   ServerState = "disabled" // turned off while toolhub runs
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
}
