package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/retriever"

	"github.com/toolhub/toolhub/internal/testenv"
)

// runSub runs one top-level command built by newCmd, as Main would run it
// under the root, and returns the exit status and output.
func runSub(t *testing.T, newCmd func(*globals) *cobra.Command, configPath string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut testenv.Buffer
	g := &globals{configPath: configPath, logLevel: "warn", stdio: Stdio{In: strings.NewReader(""), Out: &out, Err: &errOut}}
	cmd := newCmd(g)
	wrapArgs(cmd)
	cmd.SetArgs(append([]string{}, args...)) // nil would read os.Args
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetFlagErrorFunc(flagError)
	err := cmd.ExecuteContext(context.Background())
	if err != nil && !alreadyShown(err) {
		fmt.Fprintln(&errOut, "toolhub: "+err.Error())
	}
	return exitCode(err), out.String(), errOut.String()
}

// docsConfig writes a config whose documents section is docs (JSON) and
// returns its path.
func docsConfig(t *testing.T, docs string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "toolhub.json")
	writeFile(t, path, `{"mcpServers": {}, "documents": `+docs+`}`)
	return path
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestIndexCommands(t *testing.T) {
	src, idx := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(src, "a.md"), "# Walrus\n\nThe walrus basks on ice.")
	writeFile(t, filepath.Join(src, "b.txt"), "Seals swim.")
	writeFile(t, filepath.Join(src, "photo.png"), "png")
	writeFile(t, filepath.Join(src, "scratch.tmp"), "excluded")
	cfg := docsConfig(t, fmt.Sprintf(`{"dir": %q, "exclude": ["*.tmp"]}`, idx))

	code, out, errOut := runSub(t, newIndexCommand, cfg, "add", src)
	if code != 0 || !strings.Contains(out, "indexed 2, unchanged 0, removed 0, skipped 1, failed 0") ||
		!strings.Contains(out, "skipped "+filepath.Join(src, "photo.png")+": binary file type .png") {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}

	code, out, _ = runSub(t, newIndexCommand, cfg, "ls", "--json")
	var docs []retriever.DocInfo
	if err := json.Unmarshal([]byte(out), &docs); code != 0 || err != nil || len(docs) != 2 || docs[0].Title != "Walrus" {
		t.Fatalf("ls --json: exit %d, %v: %s", code, err, out)
	}
	code, out, _ = runSub(t, newIndexCommand, cfg, "ls")
	if code != 0 || !strings.Contains(out, "PATH") || !strings.Contains(out, filepath.Join(src, "b.txt")) {
		t.Fatalf("ls: %s", out)
	}

	code, out, _ = runSub(t, newIndexCommand, cfg, "status")
	for _, want := range []string{"documents:  2 (2 chunks)", "embedder:   none (search is BM25 only)", "roots:      " + src, "index:      " + idx} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = runSub(t, newIndexCommand, cfg, "rm", filepath.Join(src, "a.md"))
	if code != 0 || !strings.Contains(out, "removed 1 document under") || !strings.Contains(out, "stays out of the index") {
		t.Fatalf("rm: %s", out)
	}
	code, out, _ = runSub(t, newIndexCommand, cfg, "add", "--json")
	var rep retriever.IngestReport
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || rep.Indexed != 0 || rep.Unchanged != 1 {
		t.Fatalf("refresh: exit %d, %v: %s", code, err, out)
	}
}

func TestIndexAddNeedsSomethingToIndex(t *testing.T) {
	cfg := docsConfig(t, fmt.Sprintf(`{"dir": %q}`, t.TempDir()))
	code, _, errOut := runSub(t, newIndexCommand, cfg, "add")
	if code != exitUsage || !strings.Contains(errOut, "nothing to index") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestIndexAddMissingPath(t *testing.T) {
	cfg := docsConfig(t, fmt.Sprintf(`{"dir": %q}`, t.TempDir()))
	typo := filepath.Join(t.TempDir(), "typo")
	code, _, errOut := runSub(t, newIndexCommand, cfg, "add", typo)
	if code != exitUsage || !strings.Contains(errOut, "no file or folder at "+typo) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestIndexInUse(t *testing.T) {
	wait := daemon.IndexHandoverWait
	daemon.IndexHandoverWait = 0 // the holder here never hands it over
	t.Cleanup(func() { daemon.IndexHandoverWait = wait })
	idx := t.TempDir()
	ix, err := retriever.Open(idx, retriever.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ix.Close() }()
	code, _, errOut := runSub(t, newIndexCommand, docsConfig(t, fmt.Sprintf(`{"dir": %q}`, idx)), "status")
	for _, want := range []string{"in use by another process", "`toolhub serve`", "desktop app", "`toolhub index add`", "documents.dir"} {
		if code != exitToolError || !strings.Contains(errOut, want) {
			t.Errorf("exit %d: %q lacks %q", code, errOut, want)
		}
	}
}

func TestIndexDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home) // the home directory on Windows
	local := filepath.Join(home, "AppData", "Local")
	t.Setenv("LOCALAPPDATA", local)
	xdgData, homeData := "/data/toolhub/index", filepath.Join(home, ".local", "share", "toolhub", "index")
	if runtime.GOOS == "windows" { // XDG is not read there
		xdgData, homeData = filepath.Join(local, "toolhub", "index"), filepath.Join(local, "toolhub", "index")
	}
	tests := []struct {
		name, dir, xdg, want string
	}{
		{name: "configured", dir: "/srv/idx", want: "/srv/idx"},
		{name: "home relative", dir: "~/idx", want: filepath.Join(home, "idx")},
		{name: "xdg data home", xdg: "/data", want: xdgData},
		{name: "relative xdg ignored", xdg: "data", want: homeData},
		{name: "default", want: homeData},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_DATA_HOME", tc.xdg)
			got, err := indexDir(config.Documents{Dir: tc.dir})
			if err != nil || got != tc.want {
				t.Errorf("indexDir = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestIndexAddExitsNonZeroWhenFilesFail(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "good.txt"), "Seals swim.")
	writeFile(t, filepath.Join(src, "broken.pdf"), "%PDF-1.4 not really a pdf")
	cfg := docsConfig(t, fmt.Sprintf(`{"dir": %q}`, t.TempDir()))
	code, out, errOut := runSub(t, newIndexCommand, cfg, "add", src)
	if code != exitToolError || !strings.Contains(out, "failed 1") || !strings.Contains(errOut, "1 file could not be indexed") {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
}

func TestIndexRmSubfolderStaysRemoved(t *testing.T) {
	src, idx := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(src, "keep.txt"), "Seals swim.")
	writeFile(t, filepath.Join(src, "private", "diary.txt"), "Seals nap.")
	cfg := docsConfig(t, fmt.Sprintf(`{"dir": %q}`, idx))
	sub := filepath.Join(src, "private")
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"add", src}, "indexed 2"},
		{[]string{"rm", sub}, "stays out of the index"},
		{[]string{"add", src}, "indexed 0, unchanged 1, removed 0"},
		{[]string{"add"}, "indexed 0, unchanged 1, removed 0"},
		{[]string{"status"}, "excluded:   " + sub},
		{[]string{"add", sub}, "indexed 1"},
	}
	for _, s := range steps {
		code, out, errOut := runSub(t, newIndexCommand, cfg, s.args...)
		if code != 0 || !strings.Contains(out, s.want) {
			t.Fatalf("%v: exit %d, want %q in\n%s%s", s.args, code, s.want, out, errOut)
		}
	}
	code, out, _ := runSub(t, newIndexCommand, cfg, "status")
	if code != 0 || strings.Contains(out, "excluded:") || !strings.Contains(out, "documents:  2") {
		t.Fatalf("status after adding the folder again:\n%s", out)
	}
}

func TestIndexRmAndAddOfPathsThatAreNotIndexed(t *testing.T) {
	src, idx := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(src, "a.txt"), "Seals swim.")
	cfg := docsConfig(t, fmt.Sprintf(`{"dir": %q}`, idx))
	if code, out, errOut := runSub(t, newIndexCommand, cfg, "add", src); code != 0 {
		t.Fatalf("add: %s%s", out, errOut)
	}
	missing := filepath.Join(filepath.Dir(src), "nonexistent")
	cases := []struct {
		name    string
		args    []string
		code    int
		wantOut string
		wantErr string
	}{
		{"rm of a path never added", []string{"rm", missing}, exitToolError, "", "remove " + missing + ": not in the index"},
		{"rm of a path inside an indexed folder", []string{"rm", filepath.Join(src, "b.txt")}, 0, "removed 0 documents", ""},
		{"add of a device", []string{"add", os.DevNull}, 0, "skipped " + os.DevNull + ": not a regular file", ""},
		{"status lists the folder alone", []string{"status"}, 0, "roots:      " + src + "\n", ""},
		{"rm of the device", []string{"rm", os.DevNull}, exitToolError, "", "not in the index"},
		{"rm of the folder", []string{"rm", src}, 0, "removed 1 document under", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if slices.Contains(c.args, os.DevNull) && runtime.GOOS == "windows" {
				t.Skip("no device file to add on Windows")
			}
			code, out, errOut := runSub(t, newIndexCommand, cfg, c.args...)
			if code != c.code || !strings.Contains(out, c.wantOut) || !strings.Contains(errOut, c.wantErr) {
				t.Errorf("%v: exit %d, want %d with %q and %q in\n%s%s", c.args, code, c.code, c.wantOut, c.wantErr, out, errOut)
			}
		})
	}
}
