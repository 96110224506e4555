package hub

import "github.com/toolhub/toolhub/internal/supervise"

// RestartPolicy bounds how a crashed stdio server is restarted: a
// jittered, growing delay after each failure, giving up once MaxFailures
// fall within Window (defaults: 5 within 60s, 200ms to 10s).
type RestartPolicy = supervise.RestartPolicy
