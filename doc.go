// Package toolhub holds repository-wide checks: the import direction of
// DESIGN.md and the headless binary's freedom from Fyne. The code lives in
// cmd, hub, mcp, policies, retriever and ui.
package toolhub
