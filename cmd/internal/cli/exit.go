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

// Exit statuses of `toolhub run` for an episode that ended without an
// answer, one per run status (conductor.RunStatus); a failed run is
// exitToolError.
const (
	exitNoAnswer        = 3 // no answer within the turn limit
	exitBudgetExhausted = 4 // the budget was spent
	exitDeadline        = 5 // the deadline passed
	exitCancelled       = 6 // the run was cancelled (Ctrl-C)
)

// exitError carries an exit status with the error that caused it. shown
// says the output already told why, so it is not printed again.
type exitError struct {
	code  int
	err   error
	shown bool
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
var errToolFailure = &exitError{code: exitToolError, err: errors.New("the tool reported an error"), shown: true}

// alreadyShown reports whether err's reason was printed with the output.
func alreadyShown(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.shown
}

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
