package mcp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// nodeScript runs one of the interop scripts with the Node of .tools,
// beside the checks it imports.
func nodeScript(script string) func(t *testing.T) []string {
	return func(t *testing.T) []string {
		t.Helper()
		return testenv.NodeScript(t, filepath.Join("mcp", "testdata", "interop"), script, "checks.mjs")
	}
}

// goSDKBuilds are the Go SDK clients (mcp/testdata/gosdkclient, a module
// of its own), built once per test binary and module file.
var goSDKBuilds struct {
	mu   sync.Mutex
	dir  string
	bins map[string]string
}

// goSDKClient builds the Go SDK client with the SDK version modfile names.
func goSDKClient(modfile string) func(t *testing.T) []string {
	return func(t *testing.T) []string {
		t.Helper()
		testenv.NPMBin(t, "mcp-server-everything") // skipped under -short like its siblings
		return []string{buildWithGoSDK(t, modfile, ".")}
	}
}

// buildWithGoSDK builds pkg, a main package of mcp/testdata/gosdkclient or
// of the Go SDK itself, with the SDK version modfile names, once per test
// binary, and returns the binary's path.
func buildWithGoSDK(t *testing.T, modfile, pkg string) string {
	t.Helper()
	goSDKBuilds.mu.Lock()
	defer goSDKBuilds.mu.Unlock()
	key := modfile + " " + pkg
	if bin, ok := goSDKBuilds.bins[key]; ok {
		return bin
	}
	if goSDKBuilds.dir == "" {
		dir, err := os.MkdirTemp("", "gosdkclient-")
		if err != nil {
			t.Fatal(err)
		}
		goSDKBuilds.dir, goSDKBuilds.bins = dir, map[string]string{}
	}
	bin := filepath.Join(goSDKBuilds.dir, testenv.Exe(fmt.Sprintf("%s-%d", strings.TrimSuffix(modfile, ".mod"), len(goSDKBuilds.bins))))
	cmd := exec.Command("go", "build", "-modfile="+modfile, "-o", bin, pkg)
	cmd.Dir = filepath.Join(testenv.RepoRoot(t), "mcp", "testdata", "gosdkclient")
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s with %s: %v\n%s", pkg, modfile, err, out)
	}
	goSDKBuilds.bins[key] = bin
	return bin
}

// removeGoSDKClients deletes what goSDKClient built; TestMain calls it
// after the tests.
func removeGoSDKClients() {
	if goSDKBuilds.dir != "" {
		_ = os.RemoveAll(goSDKBuilds.dir)
	}
}
