package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
)

// Every failure of a forwarded call reaches the client as a tool result with
// isError set, never as a JSON-RPC error: a model sees the text of an isError
// result in its context and can correct itself (use the suggested name, fix
// the named field), whereas JSON-RPC errors are usually shown only to the
// user, or end the turn. This is also what the MCP specification asks for
// input validation failures (tool execution errors, SEP-1303).

// ResultTooLargeError is returned when a downstream result exceeds
// Options.MaxResultBytes.
type ResultTooLargeError struct {
	Tool  string
	Size  int
	Limit int64
}

func (e *ResultTooLargeError) Error() string {
	return fmt.Sprintf("the result of %s is %d bytes, over toolhub's limit of %d bytes; "+
		"ask the tool for less (a narrower query, fewer items, a page)", e.Tool, e.Size, e.Limit)
}

// errorResult is the one place where hub and call errors become what the
// client sees.
func errorResult(tool string, err error) *mcpgo.CallToolResult {
	return mcpgo.NewToolResultError(errorText(tool, err))
}

// userMessage is what a client sees of one of toolhub's own failures:
// what could not be done, then why.
func userMessage(what string, err error) string {
	return what + ": " + err.Error()
}

func errorText(tool string, err error) string {
	var (
		unknown     *hub.UnknownToolError
		invalid     *hub.InvalidArgumentsError
		unavailable *hub.ServerUnavailableError
		timeout     *hub.CallTimeoutError
		tooLarge    *ResultTooLargeError
		hubTooLarge *hub.ResultTooLargeError
	)
	switch {
	case errors.As(err, &unknown):
		return unknownToolText(unknown)
	case errors.As(err, &invalid):
		return invalidArgumentsText(invalid)
	case errors.As(err, &unavailable):
		return unavailableText(unavailable)
	case errors.As(err, &timeout):
		return fmt.Sprintf("%s did not answer within %s; toolhub stopped waiting. "+
			"The tool may still be running on its server.", timeout.Tool, timeout.Timeout)
	case errors.As(err, &tooLarge):
		return tooLarge.Error()
	case errors.As(err, &hubTooLarge):
		return fmt.Sprintf("the result of %s is over toolhub's limit of %d bytes (at least %d bytes arrived); "+
			"ask the tool for less (a narrower query, fewer items, a page)", tool, hubTooLarge.Limit, hubTooLarge.Size)
	case errors.Is(err, hub.ErrClosed):
		return "toolhub is shutting down; call " + tool + " again once it is back"
	case errors.Is(err, context.Canceled):
		return "the call to " + tool + " was cancelled"
	default:
		return fmt.Sprintf("the call to %s failed: %v", tool, err)
	}
}

func unknownToolText(e *hub.UnknownToolError) string {
	msg := fmt.Sprintf("unknown tool %q", e.Name)
	if len(e.Suggestions) > 0 {
		msg += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return msg
}

func invalidArgumentsText(e *hub.InvalidArgumentsError) string {
	var b strings.Builder
	fmt.Fprintf(&b, "invalid arguments for %s; the call was not sent:", e.Tool)
	for _, f := range e.Fields {
		path := f.Path
		if path == "" {
			path = "(arguments)"
		}
		fmt.Fprintf(&b, "\n- %s: %s", path, f.Message)
	}
	return b.String()
}

func unavailableText(e *hub.ServerUnavailableError) string {
	state := stateText(e.State)
	if e.State == hub.StateRetrying {
		state += " in " + hub.RetryText(e.RetryIn)
	}
	msg := fmt.Sprintf("server %s cannot take calls: it %s", e.Server, state)
	if e.Reason != "" {
		msg += " (" + e.Reason + ")"
	}
	if e.State == hub.StateStarting || e.State == hub.StateRestarting || e.State == hub.StateRetrying {
		msg += "; try again shortly"
	}
	return msg
}

func stateText(st hub.ServerState) string {
	switch st {
	case hub.StateStarting:
		return "is still starting"
	case hub.StateRestarting:
		return "is restarting after a crash"
	case hub.StateFailed:
		return "has failed and toolhub gave up restarting it"
	case hub.StateRetrying:
		return "could not be reached and is retrying"
	case hub.StateNeedsSignIn:
		return "needs sign-in"
	case hub.StateInvalid:
		return "is invalid: its config entry cannot be used"
	case hub.StateStopped:
		return "is stopped"
	case hub.StateDisabled:
		return "was turned off in toolhub"
	default:
		return "is " + string(st)
	}
}
