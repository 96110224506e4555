package cli

import (
	"errors"
	"fmt"
)

// Exit statuses shared by every subcommand.
const (
	exitOK        = 0
	exitToolError = 1 // the command ran, but what it drove reported a failure
	exitUsage     = 2 // bad flags, arguments or configuration
)

// exitError carries an exit status with the error that caused it.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError marks err as the user's mistake (exit status 2).
func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// asUsage wraps an existing error as a usage error.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitUsage, err: err}
}

// toolFailure reports that a downstream tool answered with an error (exit 1)
// without printing anything more: the result has been shown already.
var errToolFailure = &exitError{code: exitToolError, err: errors.New("the tool reported an error")}

func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitToolError
}
