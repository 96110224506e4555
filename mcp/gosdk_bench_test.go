package mcp

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestGoSDKClientBench runs the Go SDK client's bench (gosdkclient bench,
// with which docs/performance.md measures that client) for a few calls
// against toolhub over HTTP with both SDK versions: it reaches the tool and
// reports the protocol each speaks.
func TestGoSDKClientBench(t *testing.T) {
	fix := newFixture()
	srv := testServer(t, testHub(t, nil, inProcess("fix", fix.srv)), Options{})
	url := serveHTTP(t, srv, HTTPOptions{Token: testToken}).URL()
	for _, tc := range []struct{ modfile, protocol string }{
		{"go.mod", "2025-11-25"},
		{"go.v1.8.0.mod", "2026-07-28"},
	} {
		t.Run(tc.modfile, func(t *testing.T) {
			bin := goSDKClient(tc.modfile)(t)[0]
			cmd := exec.Command(bin, "bench", "-warmup", "2", "-calls", "6", "-rounds", "2", "-concurrency", "3",
				"hub=fix__echo@"+url)
			cmd.Env = append(os.Environ(), "INTEROP_TOKEN="+testToken)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("gosdkclient bench: %v\n%s", err, stderr.Bytes())
			}
			line := regexp.MustCompile(`(?m)^hub +` + regexp.QuoteMeta(tc.protocol) + ` +\S+ +\d+ +\S+ +\d+$`)
			if !line.Match(out) {
				t.Fatalf("gosdkclient bench printed\n%s\nwant a line for hub speaking %s", out, tc.protocol)
			}
		})
	}
}
