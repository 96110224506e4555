package toolhub

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/toolhub/toolhub"

// allowedImports is the import direction drawn in docs/architecture.md, as
// an explicit matrix: for every package of toolhub, which of toolhub's other
// packages it may import. A package missing here, or an import missing from
// its row, fails TestImportMatrix: a new edge is a decision, made here.
var allowedImports = map[string][]string{
	// leaves
	"internal/mcpwire":                         {},
	"internal/proc":                            {},
	"internal/supervise":                       {},
	"internal/release":                         {},
	"service":                                  {"internal/fsutil", "internal/proc", "internal/supervise"},
	"cmd/internal/buildinfo":                   {},
	"internal/queuemark":                       {},
	"internal/httpstop":                        {},
	"internal/fsutil":                          {},
	"internal/memtrim":                         {},
	"internal/scriptedmodel":                   {},
	"internal/scriptedmodel/cmd/scriptedmodel": {"internal/scriptedmodel"},
	"internal/testenv":                         {"internal/proc"},
	"events":                                   {},
	"retriever":                                {},
	"retriever/beir":                           {"retriever"},
	"retriever/synthetic":                      {"retriever", "retriever/beir"},
	"retriever/internal/ingestchild":           {"retriever"},
	"ui":                                       {},
	"secrets":                                  {"internal/fsutil"},
	// the environment and the engine
	"hub": {"internal/mcpwire", "internal/queuemark", "internal/proc", "internal/supervise", "internal/httpstop", "events"},
	// the client the MCP conformance suite drives, over the hub's own code
	"hub/internal/conformanceclient": {"hub"},
	"modelhost":                      {"internal/mcpwire", "internal/proc", "internal/supervise"},
	"llm":                            {"hub"},
	"conductor":                      {"hub", "llm", "events", "internal/supervise"},
	"runlog":                         {"conductor", "events", "internal/fsutil"},
	"policies":                       {"conductor", "hub", "llm", "runlog", "internal/fsutil"},
	"tools":                          {"retriever", "events", "internal/proc"},
	"config":                         {"conductor", "hub", "llm", "policies", "internal/fsutil"},
	"mcp":                            {"conductor", "hub", "events", "internal/mcpwire", "internal/queuemark", "internal/httpstop"},
	"eval":                           {"conductor", "llm", "policies", "runlog", "internal/fsutil"},
	"bench":                          {"conductor", "hub", "llm", "mcp", "policies", "events", "internal/proc", "internal/memtrim"},
	// the composition root and the CLI glue
	"cmd/internal/daemon": {"cmd/internal/buildinfo", "conductor", "config", "events", "hub", "llm", "mcp", "modelhost", "policies", "runlog", "tools",
		"retriever", "secrets", "internal/fsutil"},
	"cmd/internal/cli": {"bench", "cmd/internal/buildinfo", "cmd/internal/daemon", "conductor", "config", "eval", "events", "hub", "llm", "mcp", "modelhost", "service",
		"policies", "retriever", "retriever/beir", "retriever/synthetic", "runlog", "secrets", "internal/fsutil", "internal/memtrim"},
	"cmd/internal/desktop": {"cmd/internal/daemon", "conductor", "config", "events", "hub", "llm", "mcp",
		"policies", "retriever", "runlog", "tools", "ui", "internal/fsutil"},
	"cmd/internal/desktopmain": {"cmd/internal/daemon", "cmd/internal/desktop", "config", "internal/fsutil", "mcp",
		"policies", "retriever", "tools", "ui"},
	"cmd/internal/gendocs": {"cmd/internal/cli"},
	"cmd/toolhub":          {"cmd/internal/cli"},
	"cmd/toolhub-desktop":  {"cmd/internal/desktopmain"},
}

// testOnlyImports are the extra packages any package's tests may import;
// testImports the extra ones of one package's tests.
var (
	testOnlyImports = []string{"internal/testenv", "internal/scriptedmodel", "events"}
	testImports     = map[string][]string{"mcp": {"llm"}}
)

func TestImportMatrix(t *testing.T) {
	out := goList(t, nil, "-f",
		`{{.ImportPath}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`, "./...")
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		parts := strings.SplitN(line, "|", 3)
		pkg := strings.TrimPrefix(strings.TrimPrefix(parts[0], module), "/")
		if pkg == "" {
			continue // the root package holds only this test and the tool pins
		}
		seen[pkg] = true
		allowed, ruled := allowedImports[pkg]
		if !ruled {
			t.Errorf("package %s has no row in allowedImports: add one saying what it may import", pkg)
			continue
		}
		check := func(imports string, extra []string) {
			for _, imp := range strings.Fields(imports) {
				other, ok := strings.CutPrefix(imp, module+"/")
				if !ok || other == pkg || strings.HasPrefix(other, pkg+"/") {
					continue
				}
				if !slices.Contains(allowed, other) && !slices.Contains(extra, other) {
					t.Errorf("%s imports %s, which its row in allowedImports does not allow (%v)", pkg, other, allowed)
				}
			}
		}
		check(parts[1], nil)
		check(parts[2], append(append(slices.Clone(testOnlyImports), testImports[pkg]...), allowed...))
	}
	var stale []string
	for pkg := range allowedImports {
		if !seen[pkg] {
			stale = append(stale, pkg)
		}
	}
	sort.Strings(stale)
	for _, pkg := range stale {
		t.Errorf("allowedImports has a row for %s, which no longer exists", pkg)
	}
}

// wiringCalls are the constructors that assemble a running toolhub.
var wiringCalls = map[string]bool{"hub.New": true, "mcp.NewServer": true, "conductor.NewEngine": true,
	"conductor.NewEpisodes": true, "runlog.NewRecorder": true}

// assemblers may call them: the composition root, the benchmarks, which
// assemble in process exactly the parts they measure, and the conformance
// client, which runs one server through a hub of its own.
var assemblers = map[string]bool{"cmd/internal/daemon": true, "bench": true, "hub/internal/conformanceclient": true}

// TestOnlyTheRootWires checks that cmd/internal/daemon is the one place that
// builds the hub, the MCP surface and the engine (benchmarks aside): every
// other package gets them from the daemon.
func TestOnlyTheRootWires(t *testing.T) {
	out := goList(t, nil, "-f", `{{.Dir}}|{{.ImportPath}}|{{join .GoFiles " "}}`, "./...")
	fset := token.NewFileSet()
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		parts := strings.SplitN(line, "|", 3)
		pkg := strings.TrimPrefix(strings.TrimPrefix(parts[1], module), "/")
		if assemblers[pkg] {
			continue
		}
		for _, name := range strings.Fields(parts[2]) {
			f, err := parser.ParseFile(fset, filepath.Join(parts[0], name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && wiringCalls[id.Name+"."+sel.Sel.Name] {
						t.Errorf("%s calls %s.%s: only cmd/internal/daemon assembles toolhub", fset.Position(call.Pos()), id.Name, sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
}

// TestEveryPackageSaysItsJob checks that every package has a doc comment.
func TestEveryPackageSaysItsJob(t *testing.T) {
	out := goList(t, nil, "-f", `{{.ImportPath}}|{{.Doc}}|{{.Name}}`, "./...")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		parts := strings.SplitN(line, "|", 3)
		if parts[2] == "main" && parts[1] != "" {
			continue
		}
		if strings.TrimSpace(parts[1]) == "" {
			t.Errorf("package %s has no doc comment: say its one job in a doc.go", parts[0])
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
