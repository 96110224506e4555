// Package mcpwire is toolhub's hand-written MCP stdio wire: the pipes it
// relays messages over (its own stdin and stdout, and its stdio servers'),
// the framing of a server's stdout into whole JSON-RPC lines, and finding
// the id of a message too large to read whole, each at the lowest cost per
// message.
//
// Pipes are read and written at the lowest cost per message.
//
// A Go read or write on a file normally enters the scheduler's syscall path,
// which wakes the runtime's monitor thread whenever the process was idle; a
// relay that goes idle between every message pays that wake-up, and the
// thread switches it brings, on each one. For a pipe that is in non-blocking
// mode and known to Go's poller, a read or write cannot block, so it is made
// as a raw system call instead, and waiting still goes through the poller.
// Any other file is used as it is.
package mcpwire
