// Package queuemark marks a place in a queue of MCP notifications and tells
// when the queue's reader got there: everything queued before the mark has
// then been handled. toolhub uses it so that a call's result never
// overtakes the progress and log messages queued before it.
package queuemark
