package mcp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// everythingToolhubConfig writes a toolhub config listing server-everything.
func everythingToolhubConfig(t *testing.T) string {
	t.Helper()
	everything := testenv.NPMBin(t, "mcp-server-everything")
	return writeFile(t, t.TempDir(), "toolhub.json",
		fmt.Sprintf(`{"mcpServers": {"everything": {"command": %q, "args": ["stdio"]}}}`, everything))
}

// inspectorEras are the inspector's --protocol-era choices: legacy is the
// 2025-11-25 initialize handshake; modern pins 2026-07-28 and fails the
// connection when the server does not offer it.
var inspectorEras = []string{"legacy", "modern"}

// checkInspectorListAndCall lists and calls tools with the inspector CLI
// given the target arguments.
func checkInspectorListAndCall(t *testing.T, target ...string) {
	t.Helper()
	out, err := runInspector(t, append(slices.Clone(target), "--method", "tools/list")...)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("tools/list result: %v\n%s", err, out)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"everything__get-sum", "everything__echo", FindToolsName} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	out, err = runInspector(t, append(slices.Clone(target), "--method", "tools/call",
		"--tool-name", "everything__get-sum", "--tool-arg", "a=2", "--tool-arg", "b=3")...)
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	if !strings.Contains(string(out), "The sum of 2 and 3 is 5.") {
		t.Errorf("tools/call result:\n%s", out)
	}
}

func TestInspectorOverStdio(t *testing.T) {
	cfg := everythingToolhubConfig(t)
	inspectorCfg := writeFile(t, t.TempDir(), "inspector.json", fmt.Sprintf(
		`{"mcpServers": {"toolhub": {"command": %q, "args": ["--config", %q, "serve"]}}}`, toolhubBinary(t), cfg))
	for _, era := range inspectorEras {
		t.Run(era, func(t *testing.T) {
			checkInspectorListAndCall(t, "--config", inspectorCfg, "--server", "toolhub", "--protocol-era", era)
		})
	}
}

func TestInspectorOverHTTP(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	url := startToolhubHTTP(t, everythingToolhubConfig(t), "--token-file", tokenFile)
	token, err := LoadOrCreateToken(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, era := range inspectorEras {
		t.Run(era, func(t *testing.T) {
			checkInspectorListAndCall(t, url, "--transport", "http", "--protocol-era", era,
				"--header", "Authorization: Bearer "+token)
			// Refused with 401, which the inspector takes for a sign-in it
			// cannot start without a terminal.
			out, err := runInspector(t, url, "--transport", "http", "--protocol-era", era, "--method", "tools/list")
			if err == nil || !strings.Contains(err.Error(), "auth_required") {
				t.Errorf("tools/list without the token: %v\n%s", err, out)
			}
		})
	}
}
