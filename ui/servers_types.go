package ui

import (
	"errors"
	"strings"
)

// ServerKind says what a row of the Servers tab is.
const (
	KindServer  = "server"  // a configured MCP server
	KindBuiltin = "builtin" // one of toolhub's own tools
	KindModel   = "model"   // a model endpoint
)

// ToolInfo is one tool a server offers.
type ToolInfo struct {
	Name        string
	Description string
}

// SnippetCheck is what a pasted snippet would add, read as it is typed.
type SnippetCheck struct {
	Names     []string // the servers it holds
	NeedsName bool     // one server pasted without a name: ask for one
	// Problem is the first thing wrong, "line 3, column 5: ..."; empty
	// when the snippet can be added.
	Problem  string
	Warnings []string
}

// AddResult is what an add or import did.
type AddResult struct {
	Added   []string
	Skipped []string // "name: why", in words
}

// ClientConfig is another MCP client's config file found on this machine.
type ClientConfig struct {
	Client  string // in words: "Claude Desktop"
	Path    string
	Servers []string
	Problem string // why it cannot be read; empty when it can
}

// PlainError is a failure said in words: what went wrong, what to do about
// it, and the full text behind it for a bug report ("Copy details").
type PlainError struct {
	Summary string
	Fix     string
	Details string
}

func (e *PlainError) Error() string { return e.Summary }

// sentence is the summary and the fix, as one line of text.
func (e *PlainError) sentence() string {
	if e.Fix == "" {
		return e.Summary
	}
	return e.Summary + " " + e.Fix
}

// plain is err as a PlainError; an error the backend did not put in words
// keeps its text for the details.
func plain(err error) *PlainError {
	var pe *PlainError
	if errors.As(err, &pe) {
		return pe
	}
	return &PlainError{Summary: "Something went wrong.", Fix: "Copy the details to see what.", Details: err.Error()}
}

// joinSentences joins the non-empty parts with a space.
func joinSentences(parts ...string) string {
	return strings.Join(nonEmpty(parts), " ")
}
