package config

import "time"

// maxRetryDelay bounds "orchestrator.retry": a longer wait between tries is
// a typo, and the reference retries every minute.
const maxRetryDelay = time.Hour

// readRetry decodes "orchestrator.retry", {"delay": "1s", "maxDelay": "1m"}:
// how long an episode waits before calling a model again after its calls
// failed (an HTTP 500, a timeout), from delay, doubling with each failure
// in a row up to maxDelay (protocol §10). A key left out keeps the
// engine's default (conductor.DefaultRetryDelay, DefaultRetryMaxDelay).
func readRetry(d decoder, f member, out *Models) {
	fields, ok := d.object(f.value, "orchestrator.retry")
	if !ok {
		return
	}
	for _, r := range fields {
		at := "orchestrator.retry." + r.key
		var delay time.Duration
		switch r.key {
		case "delay":
			delay = readDuration(d, r, at)
			out.RetryDelay = delay
		case "maxDelay":
			delay = readDuration(d, r, at)
			out.RetryMaxDelay = delay
		default:
			d.at(r.keyAt, "orchestrator.retry: unknown key %q%s", r.key, didYouMean(r.key, []string{"delay", "maxDelay"}))
			continue
		}
		if delay > maxRetryDelay {
			d.at(r.valueAt, "%s: want at most %s, got %s", at, maxRetryDelay, delay)
		}
	}
	if out.RetryDelay > 0 && out.RetryMaxDelay > 0 && out.RetryMaxDelay < out.RetryDelay {
		d.at(f.valueAt, "orchestrator.retry: maxDelay %s is shorter than delay %s", out.RetryMaxDelay, out.RetryDelay)
	}
}
