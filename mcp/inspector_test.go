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

// inspectorConfig writes a toolhub config listing server-everything.
func everythingToolhubConfig(t *testing.T) string {
	t.Helper()
	everything := testenv.NPMBin(t, "mcp-server-everything")
	return writeFile(t, t.TempDir(), "toolhub.json",
		fmt.Sprintf(`{"mcpServers": {"everything": {"command": %q, "args": ["stdio"]}}}`, everything))
}

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
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("tools/list output is not JSON: %v\n%s", err, out)
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
	if !strings.Contains(out, "The sum of 2 and 3 is 5.") {
		t.Errorf("tools/call output:\n%s", out)
	}
}

func TestInspectorOverStdio(t *testing.T) {
	cfg := everythingToolhubConfig(t)
	inspectorCfg := writeFile(t, t.TempDir(), "inspector.json", fmt.Sprintf(
		`{"mcpServers": {"toolhub": {"command": %q, "args": ["--config", %q, "serve"]}}}`, toolhubBinary(t), cfg))
	checkInspectorListAndCall(t, "--config", inspectorCfg, "--server", "toolhub")
}

func TestInspectorOverHTTP(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	url := startToolhubHTTP(t, everythingToolhubConfig(t), "--token-file", tokenFile)
	token, err := LoadOrCreateToken(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	checkInspectorListAndCall(t, url, "--transport", "http", "--header", "Authorization: Bearer "+token)
	if out, err := runInspector(t, url, "--transport", "http", "--method", "tools/list"); err == nil {
		t.Errorf("tools/list without the token succeeded:\n%s", out)
	}
}
