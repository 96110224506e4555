package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/testenv"
)

// newServers are added to every merge case: two good ones, one whose name
// exists, one that repeats an existing command and one that is invalid.
func newServers() map[string]Server {
	return map[string]Server{
		"memory": {Type: TypeStdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"},
			Env: map[string]string{"MEMORY_FILE_PATH": "${HOME}/memory.jsonl"}},
		"remote": {Type: TypeHTTP, URL: "https://example.com/mcp?a=1&b=<2>", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"},
			Timeout: 90 * time.Second, Disabled: true, CostPerCall: 0.25, Locality: LocalityRemote},
		"a":      {Command: "other"},
		"a-copy": {Type: TypeStdio, Command: "x", Args: []string{"1"}},
		"bad":    {Type: TypeStdio},
	}
}

func TestAddServersGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/merge/*.jsonc")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	inputs = append(inputs, "testdata/merge/missing.none")
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))
		t.Run(name, func(t *testing.T) {
			original, _ := os.ReadFile(in) // missing.none does not exist
			path := filepath.Join(t.TempDir(), "config.json")
			if original != nil {
				writeFile(t, path, string(original))
			}
			added, skipped, err := AddServers(path, newServers(), nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkMerged(t, original, got)
			report := fmt.Sprintf("%s---\nadded: %q\nskipped: %q\n", got, added, skipped)
			checkGolden(t, filepath.Join("testdata", "merge", name+".golden"), []byte(report))
		})
	}
}

// checkMerged verifies that every comment of the original survived and that
// the added servers read back exactly as given.
func checkMerged(t *testing.T, original, got []byte) {
	t.Helper()
	if original == nil {
		original = Starter()
	}
	for _, line := range strings.Split(string(original), "\n") {
		if i := strings.Index(line, "//"); i >= 0 && !bytes.Contains(got, []byte(line[i:])) {
			t.Errorf("comment %q was lost", line[i:])
		}
		if i := strings.Index(line, "/*"); i >= 0 && !bytes.Contains(got, []byte(line[i:strings.Index(line, "*/")+2])) {
			t.Errorf("comment in %q was lost", line)
		}
	}
	f, err := Parse("merged", got)
	if err != nil {
		t.Fatalf("merged file has problems: %v\n%s", err, got)
	}
	want := newServers()
	for _, name := range []string{"memory", "remote"} {
		s := f.MCPServers[name]
		s.at = nil
		if !reflect.DeepEqual(s, want[name]) {
			t.Errorf("%s reads back as %+v, want %+v", name, s, want[name])
		}
	}
}

func TestAddServersSelectedNames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "config.json")
	added, skipped, err := AddServers(path, newServers(), []string{"remote", "nope"})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(added, skipped) != "[remote] [nope: not in the source]" {
		t.Errorf("added %q skipped %q", added, skipped)
	}
	// Adding again skips by name; a copy under a new name is a duplicate.
	servers := newServers()
	servers["remote2"] = servers["remote"]
	added, skipped, err = AddServers(path, servers, []string{"remote", "remote2"})
	if err != nil || len(added) != 0 || fmt.Sprint(skipped) != `[remote: already in the config remote2: duplicate of "remote"]` {
		t.Errorf("second add: %q %q %v", added, skipped, err)
	}
	if runtime.GOOS != "windows" {
		assertMode(t, path, 0o600)
	}
}

func TestAddServersKeepsModeAndSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	writeFile(t, target, "{}\n")
	if err := os.Chmod(target, 0o640); err != nil {
		t.Fatal(err)
	}
	testenv.Symlink(t, target, link)
	if _, _, err := AddServers(link, newServers(), []string{"memory"}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v", err)
	}
	assertMode(t, target, 0o640)
	if data, _ := os.ReadFile(target); !bytes.Contains(data, []byte(`"memory"`)) {
		t.Errorf("target not updated:\n%s", data)
	}
}

func TestAddServersRefusesABrokenConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	broken := `{"mcpServers": {"a": {"comand": "x"}}}`
	writeFile(t, path, broken)
	_, _, err := AddServers(path, newServers(), nil)
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want the file's problems", err)
	}
	if data, _ := os.ReadFile(path); string(data) != broken {
		t.Errorf("a broken config was rewritten:\n%s", data)
	}
}

func TestOneLineJSON(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"list", []string{"-y", "pkg"}, `["-y", "pkg"]`},
		{"punctuation inside strings", map[string]string{"K": `a:b,c "q" \`}, `{"K": "a:b,c \"q\" \\"}`},
		{"html kept", "a&b<c>", `"a&b<c>"`},
		{"long stays on one line", strings.Repeat("x,", 200), `"` + strings.Repeat("x,", 200) + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := oneLineJSON(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("got %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}
