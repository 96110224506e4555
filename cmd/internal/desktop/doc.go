// Package desktop implements the desktop's ui.Backend over the running
// daemon: its hub, episode runner, preferences store, run log and built-in
// documents tools. It converts toolhub's types to the ui package's plain
// ones; the ui package never sees toolhub's packages.
package desktop
