package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/internal/testenv"
	"github.com/toolhub/toolhub/mcp"
)

// conductorEnv is a real `toolhub serve` with server-everything,
// server-memory and an indexed folder, driven by scripted models.
type conductorEnv struct {
	orch, expert *scriptedmodel.Server
	env          []string // XDG_DATA_HOME for every toolhub child
	config       string
	url          string
}

const perDiemDoc = "# Travel policy\n\nThe per diem for business travel is 42 euros a day, paid monthly.\n"

func newConductorEnv(t *testing.T, orch, expert *scriptedmodel.Server) *conductorEnv {
	t.Helper()
	return newConductorEnvDocs(t, orch, expert, map[string]string{"travel.md": perDiemDoc})
}

// newConductorEnvDocs is newConductorEnv with its own indexed files.
func newConductorEnvDocs(t *testing.T, orch, expert *scriptedmodel.Server, files map[string]string) *conductorEnv {
	t.Helper()
	everything := testenv.NPMBin(t, "mcp-server-everything")
	memory := testenv.NPMBin(t, "mcp-server-memory")
	dir := t.TempDir()
	docs := filepath.Join(dir, "docs")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(docs, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fmt.Sprintf(`{
  "mcpServers": {
    "everything": {"command": %q, "args": ["stdio"]},
    "memory":     {"command": %q, "env": {"MEMORY_FILE_PATH": %q}}
  },
  "documents": {"roots": [%q]},
  "models": {"big": {"baseUrl": %q, "model": "gpt-5", "roles": ["search", "answer"]}},
  "orchestrator": {"baseUrl": %q, "temperature": 0}
}`, everything, memory, filepath.Join(dir, "memory.jsonl"), docs, expert.URL()+"/v1", orch.URL()+"/v1")
	e := &conductorEnv{orch: orch, expert: expert, env: []string{"XDG_DATA_HOME=" + filepath.Join(dir, "data")},
		config: filepath.Join(dir, "toolhub.json")}
	if err := os.WriteFile(e.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	e.toolhub(t, "index", "add", docs)
	e.url = testenv.StartToolhubHTTP(t, e.env, "--config", e.config, "serve", "--http=127.0.0.1:0", "--no-auth")
	return e
}

// toolhub runs the toolhub binary with the environment's config and data.
func (e *conductorEnv) toolhub(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(testenv.ToolhubBinary(t), append([]string{"--config", e.config}, args...)...)
	cmd.Env = append(os.Environ(), e.env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("toolhub %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// progressLog collects the progress notifications a client receives.
type progressLog struct {
	mu       sync.Mutex
	messages []string
	arrived  chan struct{}
}

func (p *progressLog) handle(n mcpgo.JSONRPCNotification) {
	if n.Method != "notifications/progress" {
		return
	}
	msg, _ := n.Params.AdditionalFields["message"].(string)
	p.mu.Lock()
	p.messages = append(p.messages, msg)
	p.mu.Unlock()
	select {
	case p.arrived <- struct{}{}:
	default:
	}
}

func (p *progressLog) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.messages...)
}

func (e *conductorEnv) client(t *testing.T) (*mcpclient.Client, *progressLog) {
	t.Helper()
	c, err := mcpclient.NewStreamableHttpClient(e.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	progress := &progressLog{arrived: make(chan struct{}, 1)}
	c.OnNotification(progress.handle)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "conductor-e2e", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	// Clients list tools before calling them; the listing waits for
	// servers still connecting.
	if _, err := c.ListTools(ctx, mcpgo.ListToolsRequest{}); err != nil {
		t.Fatal(err)
	}
	return c, progress
}

// call runs one conductor tool with a progress token and decodes its trace.
func call(ctx context.Context, t *testing.T, c *mcpclient.Client, tool string, args map[string]any) (*mcpgo.CallToolResult, mcp.Trace, error) {
	t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	req.Params.Meta = &mcpgo.Meta{ProgressToken: "episode-1"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return nil, mcp.Trace{}, err
	}
	var trace mcp.Trace
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &trace); err != nil {
		t.Fatalf("structured content is not a trace: %v\n%s", err, raw)
	}
	return res, trace, nil
}

func stepsOf(tr mcp.Trace, kind conductor.StepKind) []mcp.TraceStep {
	var out []mcp.TraceStep
	for _, s := range tr.Steps {
		if s.Kind == string(kind) {
			out = append(out, s)
		}
	}
	return out
}

// checkTotals checks the totals add up the steps.
func checkTotals(t *testing.T, tr mcp.Trace) {
	t.Helper()
	var usd float64
	var in, out int
	for _, s := range tr.Steps {
		usd += s.USD
		in += s.TokensIn
		out += s.TokensOut
	}
	if math.Abs(usd-tr.Totals.USD) > 1e-12 || in != tr.Totals.TokensIn || out != tr.Totals.TokensOut {
		t.Errorf("totals %+v do not add up the steps ($%g, %d in, %d out)", tr.Totals, usd, in, out)
	}
}
