package hub

import (
	"errors"
	"fmt"
)

// ResultTooLargeError is returned when a downstream answer is larger than the
// hub accepts (Options.MaxResultBytes). The server stays connected; only the
// call fails.
type ResultTooLargeError struct {
	Server string
	Method string // "tools/call", "tools/list"
	Size   int64  // bytes received before the hub stopped reading, at least
	Limit  int64
}

func (e *ResultTooLargeError) Error() string {
	return fmt.Sprintf("server %s: %s result of %d bytes or more exceeds the %d-byte limit",
		e.Server, e.Method, e.Size, e.Limit)
}

// errResponseTooLarge marks an HTTP body cut off by the size limit.
var errResponseTooLarge = errors.New("response too large")

// RemoteError is a JSON-RPC error a downstream server answered a request
// with (an unknown tool, invalid params). The connection stays healthy. It
// unwraps to mcp-go's sentinel for the code (mcpgo.ErrInvalidParams...).
type RemoteError struct {
	Server  string
	Method  string
	Code    int
	Message string
	Data    any // the error's data, as the server sent it; nil without
	cause   error
}

func (e *RemoteError) Error() string {
	return fmt.Sprintf("server %s: %s: %v", e.Server, e.Method, e.cause)
}

func (e *RemoteError) Unwrap() error { return e.cause }
