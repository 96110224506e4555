package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/internal/testenv"
)

func orchestratorConfig(t *testing.T, orchestrator string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "toolhub.json")
	writeFile(t, path, `{"mcpServers": {}, "orchestrator": `+orchestrator+`}`)
	return path
}

func TestModelStatus(t *testing.T) {
	srv := scriptedmodel.New()
	defer srv.Close()
	down := fmt.Sprintf("http://127.0.0.1:%d", testenv.FreePort(t))
	t.Run("reachable and hosted", func(t *testing.T) {
		cfg := orchestratorConfig(t, fmt.Sprintf(`{"baseUrl": %q, "launch": {"command": ["llama-server", "--jinja"], "health": %q}}`,
			srv.URL()+"/v1", srv.URL()+"/health"))
		code, stdout, stderr := runSub(t, newModelCommand, cfg, "status", "--json")
		var st modelStatus
		if code != 0 || json.Unmarshal([]byte(stdout), &st) != nil {
			t.Fatalf("exit %d: %s%s", code, stdout, stderr)
		}
		o, h := st.Orchestrator, st.Hosting
		if !o.Reachable || len(o.ServedModels) != 1 || o.ServedModels[0] != scriptedmodel.DefaultModel || o.Locality != "local" {
			t.Fatalf("orchestrator %+v", o)
		}
		if o.TokenCounts != "vllm" || o.TokenCountsWhy != "" || len(srv.TokenizeRequests()) != 1 {
			t.Fatalf("token counts %q (%q) after %d /tokenize requests; want the server's, in vLLM's shape",
				o.TokenCounts, o.TokenCountsWhy, len(srv.TokenizeRequests()))
		}
		if h == nil || !h.Healthy || h.StartTimeout != "20m0s" || h.Command[0] != "llama-server" {
			t.Fatalf("hosting %+v", h)
		}
		if len(st.GPU.GPUs) == 0 && st.GPU.Note == "" {
			t.Fatalf("the GPU report says nothing: %+v", st.GPU)
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		code, stdout, _ := runSub(t, newModelCommand, orchestratorConfig(t, fmt.Sprintf(`{"baseUrl": %q}`, down+"/v1")), "status")
		for _, want := range []string{"reachable     no: unreachable", "the fallback policy decides", "hosting       not configured",
			"token counts  estimated at 2.7 bytes a token: the server did not answer /tokenize"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, stdout)
			}
		}
		if code != 1 {
			t.Fatalf("exit %d, want 1", code)
		}
	})
}

func TestModelStartWithoutLaunch(t *testing.T) {
	code, _, stderr := runSub(t, newModelCommand, orchestratorConfig(t, `{}`), "start")
	if code != 2 || !strings.Contains(stderr, `no "orchestrator.launch"`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestModelStartRunsTheServerUntilCancelled(t *testing.T) {
	bin := filepath.Join(t.TempDir(), testenv.Exe("fakemodelserver"))
	build := exec.Command("go", "build", "-o", bin, "./modelhost/testdata/fakemodelserver")
	build.Dir = testenv.RepoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t))
	cfg := orchestratorConfig(t, fmt.Sprintf(`{"baseUrl": "http://%s/v1", "launch": {"command": [%q, "-addr", %q, "-load-delay", "200ms"]}}`,
		addr, bin, addr))
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		g := &globals{configPath: cfg, logLevel: "warn", stdio: Stdio{In: strings.NewReader(""), Out: out, Err: out}}
		cmd := newModelCommand(g)
		cmd.SetArgs([]string{"start"})
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		done <- exitCode(cmd.ExecuteContext(ctx))
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "healthy (pid") {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("never healthy:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if got := out.String(); !strings.Contains(got, "starting") || !strings.HasSuffix(strings.TrimSpace(got), "stopped") {
		t.Fatalf("output:\n%s", got)
	}
}

func FuzzParseModelList(f *testing.F) {
	f.Add([]byte(`{"object":"list","data":[{"id":"orchestrator-8b","object":"model"}]}`))
	f.Add([]byte(`{"data":[{"id":""},{}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ids, err := parseModelList(body)
		for _, id := range ids {
			if err != nil || id == "" {
				t.Fatalf("ids %q with err %v", ids, err)
			}
		}
	})
}
