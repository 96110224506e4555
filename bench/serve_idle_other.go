//go:build !linux

package bench

// idleMemory reads pid's resident size the way the proxy benchmark does
// (processRSS); this system does not split it into anonymous and file
// pages, so both stay 0.
func idleMemory(pid int) (IdleReport, error) {
	rss, err := processRSS(pid)
	return IdleReport{RSS: rss}, err
}
