package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/testenv"
)

// interopChecks are the checks every client of the SDK matrix runs, in the
// names its one JSON line per check carries (mcp/testdata/interop).
var interopChecks = []string{
	"apps_ui", "list", "call", "progress", "cancel", "resources", "prompts", "completion",
	"sampling", "elicitation", "task_tool", "roots", "ping", "setLevel", "list_changed",
}

// matrixGap is a check a client cannot pass through toolhub, with why. The
// check is skipped with the reason while it fails with failsWith in its
// detail; a gap that starts passing, or fails otherwise, fails the test.
type matrixGap struct {
	reason    string
	failsWith string
}

// matrixGaps are the known gaps, by protocol era or by client, on every
// transport; a client's own entry comes first.
var matrixGaps = map[string]map[string]matrixGap{
	"ts-client-v2": {
		"ping": {"protocol 2026-07-28 has no ping: @modelcontextprotocol/client 2.4.0 refuses to send it",
			"not supported by the negotiated protocol version"},
		"setLevel": {"protocol 2026-07-28 has no logging/setLevel: @modelcontextprotocol/client 2.4.0 refuses to send it",
			"not supported by the negotiated protocol version"},
	},
}

func (c matrixClient) gap(check string) matrixGap {
	if g, ok := matrixGaps[c.name][check]; ok {
		return g
	}
	return matrixGaps[c.era][check]
}

// matrixClient is one SDK's client program: it takes "stdio COMMAND
// ARGS..." or "http URL" and prints one JSON line per check.
type matrixClient struct {
	name string
	era  string // the protocol version the client must negotiate
	argv func(t *testing.T) []string
}

var matrixClients = []matrixClient{
	{"ts-sdk-v1", "2025-11-25", nodeScript("sdk-v1.mjs")},
	{"ts-client-v2", "2026-07-28", nodeScript("client-v2.mjs")},
	{"go-sdk-v1.6.1", "2025-11-25", goSDKClient("go.mod")},
	{"go-sdk-v1.8.0", "2026-07-28", goSDKClient("go.v1.8.0.mod")},
}

// TestSDKMatrix runs each SDK's client against a real toolhub serve, with
// server-everything and an MCP Apps server behind it, over stdio and over
// HTTP, and reports every check as a subtest.
func TestSDKMatrix(t *testing.T) {
	for _, c := range matrixClients {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(c.name+"/"+transport, func(t *testing.T) { runMatrixCell(t, c, transport) })
		}
	}
}

func runMatrixCell(t *testing.T, c matrixClient, transport string) {
	env := newMatrixEnv(t)
	argv := c.argv(t)
	var extra []string
	switch transport {
	case "stdio":
		argv = append(argv, "stdio", toolhubBinary(t), "--config", env.config, "serve")
	case "http":
		tokenFile := filepath.Join(t.TempDir(), "token")
		argv = append(argv, "http", startToolhubHTTP(t, env.config, "--token-file", tokenFile))
		token, err := LoadOrCreateToken(tokenFile)
		if err != nil {
			t.Fatal(err)
		}
		extra = append(extra, "INTEROP_TOKEN="+token)
	}
	results := env.run(t, argv, extra)
	if got := results["connect"]; !got.OK || got.Detail != c.era {
		t.Fatalf("the client negotiated %q, want %s (%+v)", got.Detail, c.era, got)
	}
	for _, check := range interopChecks {
		t.Run(check, func(t *testing.T) {
			res, ok := results[check]
			if !ok {
				t.Fatalf("the client printed no result for %s", check)
			}
			if res.OK && check == "cancel" && !env.downstreamSawCancel() {
				t.Fatal("the call was cancelled but notifications/cancelled never reached server-everything")
			}
			judgeMatrixCheck(t, c.gap(check), res)
		})
	}
}

// judgeMatrixCheck passes, fails or skips one check by its result and the
// known gap, if any.
func judgeMatrixCheck(t *testing.T, gap matrixGap, res matrixResult) {
	t.Helper()
	switch {
	case gap.reason == "" && res.OK:
		t.Log(res.Detail)
	case gap.reason == "":
		t.Fatal(res.Detail)
	case res.OK:
		t.Fatalf("passes now (%s): remove the gap %q", res.Detail, gap.reason)
	case !strings.Contains(res.Detail, gap.failsWith):
		t.Fatalf("known gap %q, but it fails otherwise: %s", gap.reason, res.Detail)
	default:
		t.Skipf("%s; the client saw: %s", gap.reason, firstLine(res.Detail, 300))
	}
}

// matrixResult is one line a client printed.
type matrixResult struct {
	Check  string `json:"check"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// matrixEnv is one toolhub config: server-everything (its stdin copied to
// a file) and the MCP Apps server, and the config the list_changed check
// writes, which adds server-memory.
type matrixEnv struct {
	config, changed string
	stdinCopy       string
}

func newMatrixEnv(t *testing.T) matrixEnv {
	t.Helper()
	dir := t.TempDir()
	env := matrixEnv{config: filepath.Join(dir, "toolhub.json"), stdinCopy: filepath.Join(dir, "everything-stdin.jsonl")}
	servers := map[string]any{
		"everything": map[string]any{"command": "/bin/sh",
			"args": []string{"-c", `tee -a "$0" | "$1" stdio`, env.stdinCopy, testenv.NPMBin(t, "mcp-server-everything")}},
		"apps": map[string]any{"command": testenv.NPMBin(t, "mcp-server-basic-vanillajs"), "args": []string{"--stdio"}},
	}
	writeJSON(t, env.config, map[string]any{"mcpServers": servers})
	servers["memory"] = map[string]any{"command": testenv.NPMBin(t, "mcp-server-memory"),
		"env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}}
	changed, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	env.changed = string(changed)
	return env
}

// run runs the client to its end and returns its results by check.
func (e matrixEnv) run(t *testing.T, argv, extra []string) map[string]matrixResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), extra...)
	cmd.Env = append(cmd.Env, "INTEROP_CONFIG="+e.config, "INTEROP_CONFIG_CHANGED="+e.changed,
		"PATH="+filepath.Dir(testenv.NPMBin(t, "node"))+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	results := map[string]matrixResult{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r matrixResult
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Check == "" {
			t.Errorf("the client printed a line that is no check result: %s", sc.Text())
			continue
		}
		if r.Check != "connect" && !slices.Contains(interopChecks, r.Check) {
			t.Errorf("the client ran a check the matrix does not know: %s", r.Check)
		}
		results[r.Check] = r
	}
	if err != nil || t.Failed() {
		t.Logf("client %v: %v\nstderr:\n%s", argv, err, stderr.String())
	}
	return results
}

func (e matrixEnv) downstreamSawCancel() bool {
	data, _ := os.ReadFile(e.stdinCopy)
	return bytes.Contains(data, []byte(`"notifications/cancelled"`))
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
