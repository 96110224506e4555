package mcp

import (
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
		goSDKBuilds.mu.Lock()
		defer goSDKBuilds.mu.Unlock()
		if bin, ok := goSDKBuilds.bins[modfile]; ok {
			return []string{bin}
		}
		if goSDKBuilds.dir == "" {
			dir, err := os.MkdirTemp("", "gosdkclient-")
			if err != nil {
				t.Fatal(err)
			}
			goSDKBuilds.dir, goSDKBuilds.bins = dir, map[string]string{}
		}
		bin := filepath.Join(goSDKBuilds.dir, strings.TrimSuffix(modfile, ".mod"))
		cmd := exec.Command("go", "build", "-modfile="+modfile, "-o", bin, ".")
		cmd.Dir = filepath.Join(testenv.RepoRoot(t), "mcp", "testdata", "gosdkclient")
		cmd.Env = append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build mcp/testdata/gosdkclient with %s: %v\n%s", modfile, err, out)
		}
		goSDKBuilds.bins[modfile] = bin
		return []string{bin}
	}
}

// removeGoSDKClients deletes what goSDKClient built; TestMain calls it
// after the tests.
func removeGoSDKClients() {
	if goSDKBuilds.dir != "" {
		_ = os.RemoveAll(goSDKBuilds.dir)
	}
}
