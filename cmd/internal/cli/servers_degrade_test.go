package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/testenv"
)

// A bad server entry: servers lists it as invalid with its reason, the good
// server beside it is ready, and config check still fails on it.
func TestServersListsABadEntryAsInvalid(t *testing.T) {
	url, _ := testenv.CountingMCPServer(t, "fetch")
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	text := fmt.Sprintf(`{"mcpServers": {
  "web": {"url": %q},
  "gh": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${input:token}"}}
}}`, url)
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	reason := cfg + `:3:`
	cases := []struct {
		name     string
		args     []string
		wantCode int
		want     []string
	}{
		{"table", []string{"servers"}, 0, []string{"invalid", "ready", "gh is invalid: " + reason, "is not a variable reference"}},
		{"config check", []string{"config", "check"}, 2, []string{reason, "is not a variable reference"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, append([]string{"--config", cfg}, tc.args...)...)
			if code != tc.wantCode {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, tc.wantCode, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
	code, stdout, stderr := run(t, "--config", cfg, "servers", "--json")
	var sts []hub.ServerStatus
	if code != 0 || json.Unmarshal([]byte(stdout), &sts) != nil {
		t.Fatalf("servers --json: exit %d\n%s\n%s", code, stdout, stderr)
	}
	states := map[string]hub.ServerStatus{}
	for _, st := range sts {
		states[st.Name] = st
	}
	if gh := states["gh"]; gh.State != hub.StateInvalid || !strings.Contains(gh.LastError, reason) {
		t.Errorf("gh in --json: %+v", gh)
	}
	if web := states["web"]; web.State != hub.StateReady {
		t.Errorf("web in --json: %+v", web)
	}
}
