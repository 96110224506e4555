package hub

import "github.com/toolhub/toolhub/internal/supervise"

// RestartPolicy bounds how a crashed stdio server is restarted: a
// jittered, growing delay after each failure, giving up once MaxFailures
// fall within Window (defaults: 5 within 60s, 200ms to 10s).
type RestartPolicy = supervise.RestartPolicy

// RetryPolicy bounds how a remote (sse or http) server that cannot be
// reached is tried again: a jittered delay doubling from 1s up to 5m
// between tries, never giving up while the hub runs.
type RetryPolicy = supervise.RetryPolicy
