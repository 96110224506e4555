// Package runlog stores finished episodes in a local Badger database and
// exports them as JSONL trajectories: the one owner of the run log.
package runlog
