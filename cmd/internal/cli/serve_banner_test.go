package cli

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/mcp"
)

// startServeHTTP runs toolhub serve with args until the test ends and
// returns its stderr once the banner is out, and a function that stops it
// and returns its exit status.
func startServeHTTP(t *testing.T, args ...string) (*syncBuffer, func() int) {
	t.Helper()
	stderr := &syncBuffer{}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan int, 1)
	go func() {
		all := append([]string{"--config", writeConfig(t, ""), "serve"}, args...)
		done <- runCLI(ctx, all, Stdio{In: strings.NewReader(""), Out: io.Discard, Err: stderr})
	}()
	stop := func() int {
		cancel()
		select {
		case code := <-done:
			return code
		case <-time.After(serveWait):
			t.Fatal("serve did not stop when its context ended")
			return -1
		}
	}
	t.Cleanup(func() { cancel() })
	deadline := time.Now().Add(serveWait)
	for !strings.Contains(stderr.String(), "Client configuration:") {
		select {
		case code := <-done:
			t.Fatalf("serve ended with status %d before its banner; stderr:\n%s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no banner; stderr:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return stderr, stop
}

// writeToken writes a known token to a new token file.
func writeToken(t *testing.T, token string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(path, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestServeHTTPNeverPrintsTheToken(t *testing.T) {
	const token = "Known-Token_0123456789abcdefghijKLMN"
	tokenFile := writeToken(t, token)
	stderr, stop := startServeHTTP(t, "--http=127.0.0.1:0", "--token-file", tokenFile, "--log-level", "debug")
	m := endpointLine.FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no endpoint in the banner:\n%s", stderr.String())
	}
	// Requests with and without the token, so that their log lines are in
	// stderr too.
	for _, auth := range []string{"", "Bearer " + token, "Bearer not-" + token} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, m[1],
			strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if code := stop(); code != exitOK {
		t.Errorf("exit status %d", code)
	}
	out := stderr.String()
	if strings.Contains(out, token) {
		t.Errorf("stderr carries the token:\n%s", out)
	}
	for _, want := range []string{"bearer token: in " + tokenFile, catCommand(runtime.GOOS, tokenFile), exportCommand(runtime.GOOS, tokenFile),
		"${" + mcp.TokenEnvVar + "}"} {
		if !strings.Contains(out, want) {
			t.Errorf("stderr lacks %q:\n%s", want, out)
		}
	}
}

func TestServeHTTPWarnsWhenOtherMachinesCanConnect(t *testing.T) {
	tests := []struct {
		name     string
		addr     string
		wantWarn bool
	}{
		{"all IPv4 interfaces", "0.0.0.0:0", true},
		{"all interfaces, no host", ":0", true},
		{"loopback only", "127.0.0.1:0", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stderr, stop := startServeHTTP(t, "--http="+tt.addr, "--token-file", writeToken(t, "Warn-Token_0123456789abcdefghij"))
			stop()
			out := stderr.String()
			warned := strings.Contains(out, "WARNING: toolhub listens on all interfaces")
			if warned != tt.wantWarn {
				t.Errorf("warned = %v, want %v:\n%s", warned, tt.wantWarn, out)
			}
			if tt.wantWarn && strings.Contains(out, "toolhub serves MCP at http://127.0.0.1") {
				t.Errorf("the banner gives a loopback URL as the endpoint of all interfaces:\n%s", out)
			}
			if tt.wantWarn && !strings.Contains(out, "toolhub serves MCP on all interfaces") {
				t.Errorf("the banner does not say it serves all interfaces:\n%s", out)
			}
		})
	}
}

func TestServeBannerText(t *testing.T) {
	const file = "/home/u/.config/toolhub/token"
	tests := []struct {
		name    string
		banner  serveBanner
		want    []string
		notWant []string
	}{
		{
			name: "all interfaces with addresses",
			banner: serveBanner{binding: mcp.Binding{Addr: "[::]:8765", AllInterfaces: true, Exposed: true,
				URLs: []string{"http://192.0.2.7:8765/mcp", "http://[2001:db8::7]:8765/mcp"}},
				localURL: "http://127.0.0.1:8765/mcp", tokenFile: file, goos: "linux"},
			want: []string{"WARNING: toolhub listens on all interfaces ([::]:8765)", "  http://192.0.2.7:8765/mcp\n",
				"  http://[2001:db8::7]:8765/mcp\n", "http://127.0.0.1:8765/mcp (from this machine)",
				"claude mcp add --transport http toolhub http://192.0.2.7:8765/mcp", "wl-copy < " + file},
			notWant: []string{"toolhub serves MCP at"},
		},
		{
			name: "all interfaces, no address listed",
			banner: serveBanner{binding: mcp.Binding{Addr: "0.0.0.0:8765", AllInterfaces: true, Exposed: true},
				localURL: "http://127.0.0.1:8765/mcp", tokenFile: file, goos: "darwin"},
			want: []string{"WARNING", "on all interfaces (0.0.0.0:8765; this host lists no other address)",
				"pbcopy < " + file},
		},
		{
			name: "a LAN address",
			banner: serveBanner{binding: mcp.Binding{Addr: "192.0.2.7:9000", Exposed: true,
				URLs: []string{"http://192.0.2.7:9000/mcp"}}, localURL: "http://192.0.2.7:9000/mcp", tokenFile: file, goos: "linux"},
			want: []string{"WARNING: toolhub listens on 192.0.2.7:9000, an address other machines can reach",
				"toolhub serves MCP at http://192.0.2.7:9000/mcp"},
		},
		{
			name: "loopback on windows",
			banner: serveBanner{binding: mcp.Binding{Addr: "127.0.0.1:8765", URLs: []string{"http://127.0.0.1:8765/mcp"}},
				localURL: "http://127.0.0.1:8765/mcp", tokenFile: `C:\Users\u\AppData\Roaming\toolhub\token`, goos: "windows"},
			want: []string{"toolhub serves MCP at http://127.0.0.1:8765/mcp",
				`Get-Content 'C:\Users\u\AppData\Roaming\toolhub\token' | Set-Clipboard`,
				`$env:TOOLHUB_TOKEN = Get-Content 'C:\Users\u\AppData\Roaming\toolhub\token'`},
			notWant: []string{"WARNING"},
		},
		{
			name: "no authentication",
			banner: serveBanner{binding: mcp.Binding{Addr: "127.0.0.1:8765", URLs: []string{"http://127.0.0.1:8765/mcp"}},
				localURL: "http://127.0.0.1:8765/mcp", goos: "linux"},
			want:    []string{"authentication is off", `"url": "http://127.0.0.1:8765/mcp"`},
			notWant: []string{"Authorization", "bearer token"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.banner.text(nil)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("banner lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("banner has %q:\n%s", w, got)
				}
			}
		})
	}
}
