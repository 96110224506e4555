package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// nodeScript runs one of the interop scripts with the Node of .tools. The
// scripts import the SDKs installed there, and Node resolves an import from
// the importing file, so the scripts are copied under .tools/run first.
func nodeScript(script string) func(t *testing.T) []string {
	return func(t *testing.T) []string {
		t.Helper()
		node := testenv.NPMBin(t, "node")
		root := testenv.RepoRoot(t)
		dir, err := os.MkdirTemp(filepath.Join(root, ".tools", "run"), "interop-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.RemoveAll(dir) })
		for _, name := range []string{"checks.mjs", script} {
			data, err := os.ReadFile(filepath.Join(root, "mcp", "testdata", "interop", name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return []string{node, filepath.Join(dir, script)}
	}
}

// goSDK2025Build is the Go SDK client at a 2025-11-25 version, built once
// per test binary from its own module (mcp/testdata/gosdk2025).
var goSDK2025Build struct {
	once sync.Once
	dir  string
	path string
	err  error
	out  []byte
}

func goSDK2025Client(t *testing.T) []string {
	t.Helper()
	testenv.NPMBin(t, "mcp-server-everything") // skipped under -short like its siblings
	goSDK2025Build.once.Do(func() {
		dir, err := os.MkdirTemp("", "gosdk2025-")
		if err != nil {
			goSDK2025Build.err = err
			return
		}
		goSDK2025Build.dir = dir
		goSDK2025Build.path = filepath.Join(dir, "gosdk2025")
		cmd := exec.Command("go", "build", "-o", goSDK2025Build.path, ".")
		cmd.Dir = filepath.Join(testenv.RepoRoot(t), "mcp", "testdata", "gosdk2025")
		cmd.Env = append(os.Environ(), "GOWORK=off")
		goSDK2025Build.out, goSDK2025Build.err = cmd.CombinedOutput()
	})
	if goSDK2025Build.err != nil {
		t.Fatalf("build mcp/testdata/gosdk2025: %v\n%s", goSDK2025Build.err, goSDK2025Build.out)
	}
	return []string{goSDK2025Build.path}
}

// removeGoSDK2025Client deletes what goSDK2025Client built; TestMain calls
// it after the tests.
func removeGoSDK2025Client() {
	if goSDK2025Build.dir != "" {
		_ = os.RemoveAll(goSDK2025Build.dir)
	}
}
