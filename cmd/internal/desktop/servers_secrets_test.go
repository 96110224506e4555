package desktop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
)

// TestAddedServersKeepNoLiteralSecret: a pasted entry holding a token is
// written with a ${keychain:...} reference, the token goes to the secret
// store, and the window says so.
func TestAddedServersKeepNoLiteralSecret(t *testing.T) {
	t.Setenv(daemon.SecretsBackendEnv, "file")
	orch := scriptedmodel.New()
	defer orch.Close()
	e := newEnv(t, orch)
	const token = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
	snippet := `{"gh": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer ` + token + `"}}}`
	res, err := e.backend.AddServersJSON(context.Background(), snippet, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Added) != 1 || len(res.SecretsMoved) != 1 {
		t.Fatalf("result %+v, want gh added and one secret moved", res)
	}
	cfgPath := filepath.Join(e.dir, "toolhub.json")
	data, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), token) || !strings.Contains(string(data), "Bearer ${keychain:"+res.SecretsMoved[0]+"}") {
		t.Fatalf("the config holds:\n%s", data)
	}
	store, err := daemon.OpenSecrets(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := store.Get(res.SecretsMoved[0]); err != nil || got != token {
		t.Fatalf("the store holds %q, %v", got, err)
	}
}
