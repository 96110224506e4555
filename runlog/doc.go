// Package runlog stores finished episodes in a local Badger database, with
// every model request and reply body kept once under its sha256, and
// exports them as JSONL trajectories built from those bodies: the one
// owner of the run log.
package runlog
