package toolhub

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/toolhub/toolhub"

// allowedImports is DESIGN.md's one-way flow: for each top-level package
// tree, which of toolhub's other trees it may import. cmd is the composition
// root and may import everything.
var allowedImports = map[string][]string{
	"hub":       {"internal"},
	"retriever": {},
	"policies":  {"hub"},
	"mcp":       {"hub", "retriever", "internal"},
	"ui":        {},
	"internal":  {}, // leaf helpers (pipeio) and test support
}

func TestImportDirection(t *testing.T) {
	out := goList(t, nil, "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg, imports := fields[0], fields[1:]
		tree := topLevel(pkg)
		allowed, ruled := allowedImports[tree]
		if !ruled {
			continue
		}
		for _, imp := range imports {
			other := topLevel(imp)
			if other == "" || other == tree {
				continue
			}
			if !contains(allowed, other) {
				t.Errorf("%s imports %s: %s may import only %v of toolhub's packages", pkg, imp, tree, allowed)
			}
		}
	}
}

func TestOnlyDaemonWiresEverything(t *testing.T) {
	out := goList(t, nil, "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./cmd/...")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0] == module+"/cmd/internal/daemon" {
			continue
		}
		trees := map[string]bool{}
		for _, imp := range fields[1:] {
			if tr := topLevel(imp); tr != "" && tr != "cmd" {
				trees[tr] = true
			}
		}
		if len(trees) >= len(allowedImports) {
			t.Errorf("%s imports every toolhub package; only cmd/internal/daemon may", fields[0])
		}
	}
}

func TestHeadlessBinaryLinksNoFyne(t *testing.T) {
	env := []string{"CGO_ENABLED=0"}
	out := goList(t, env, "-deps", "./cmd/toolhub")
	for _, dep := range strings.Fields(out) {
		if strings.HasPrefix(dep, "fyne.io/") || dep == module+"/ui" {
			t.Errorf("cmd/toolhub links %s; the headless binary must not link Fyne or the ui package", dep)
		}
	}
	if testing.Short() {
		return
	}
	bin := filepath.Join(t.TempDir(), "toolhub")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/toolhub")
	cmd.Env = append(os.Environ(), env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build ./cmd/toolhub: %v\n%s", err, msg)
	}
}

// topLevel names the toolhub tree a package belongs to, or "" for others.
func topLevel(pkg string) string {
	rest, ok := strings.CutPrefix(pkg, module+"/")
	if !ok {
		return ""
	}
	first, _, _ := strings.Cut(rest, "/")
	return first
}

func goList(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
