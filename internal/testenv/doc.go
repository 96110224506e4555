// Package testenv finds what toolhub's tests drive: the repository root, the
// npm reference servers under .tools, free loopback ports, and child
// processes that must not outlive a test.
package testenv
