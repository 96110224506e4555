package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// TestEmptyListsPrintAsEmptyJSONArrays checks that --json prints an empty
// list as [] rather than null.
func TestEmptyListsPrintAsEmptyJSONArrays(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T) (code int, stdout string)
		want string
	}{
		{name: "index ls of an empty index", want: "[]\n", run: func(t *testing.T) (int, string) {
			code, out, _ := runSub(t, newIndexCommand, docsConfig(t, fmt.Sprintf(`{"dir": %q}`, t.TempDir())), "ls", "--json")
			return code, out
		}},
		{name: "runs ls without runs", want: "[]\n", run: func(t *testing.T) (int, string) {
			t.Setenv("XDG_DATA_HOME", t.TempDir())
			code, out, _ := runSub(t, newRunsCommand, "", "ls", "--json")
			return code, out
		}},
		{name: "config discover finding nothing", want: "[]\n", run: func(t *testing.T) (int, string) {
			configEnv(t)
			code, out, _ := runConfigCmd(t, "config", "discover", "--json")
			return code, out
		}},
		{name: "model status without a GPU", want: `"gpus": [`, run: func(t *testing.T) (int, string) {
			t.Setenv("PATH", t.TempDir()) // no nvidia-smi
			down := fmt.Sprintf("http://127.0.0.1:%d/v1", testenv.FreePort(t))
			_, out, _ := runSub(t, newModelCommand, orchestratorConfig(t, fmt.Sprintf(`{"baseUrl": %q}`, down)), "status", "--json")
			return 0, out
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out := tc.run(t)
			if code != 0 || !strings.Contains(out, tc.want) || strings.Contains(out, "null") {
				t.Fatalf("exit %d, want %q and no null:\n%s", code, tc.want, out)
			}
		})
	}
}
