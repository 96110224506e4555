// Package events is toolhub's one event bus: episode steps, downstream
// server state changes and ingest progress are published here once, with
// monotonic ids, and every reader (MCP progress, the desktop, the run log)
// subscribes to the types it wants.
//
// It follows syncthing's lib/events: a publisher never blocks; each event
// gets the next id; a subscription buffers what it has not read yet and
// counts what it lost when its buffer was full; and the bus keeps the most
// recent events so a reader that connects late (or lost some) asks for
// everything after the last id it saw with Since.
package events
