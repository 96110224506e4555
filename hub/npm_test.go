package hub

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
)

// npmOptions allow for the reference servers' slower start.
func npmOptions() downstreamOptions {
	opts := testOptions()
	opts.ConnectTimeout = 20 * time.Second
	return opts
}

func TestNPMEverythingStdio(t *testing.T) {
	bin := npmBin(t, "mcp-server-everything")
	t.Setenv("TOOLHUB_CANARY_SECRET", "leak")
	spec := ServerSpec{
		Name: "everything", Transport: TransportStdio, Command: bin, Args: []string{"stdio"},
		Env: map[string]string{"VISIBLE": "yes"}, Locality: LocalityLocal,
	}
	d := runDownstream(t, spec, npmOptions())
	d.waitState(t, StateReady)

	checkEverythingTools(t, d)
	checkGetSum(t, d)
	checkTaskOnlyTool(t, d)

	t.Run("environment does not leak", func(t *testing.T) {
		raw, err := d.Call(t.Context(), "get-env", json.RawMessage(`{}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		text := resultText(t, raw)
		if strings.Contains(text, "leak") || strings.Contains(text, "TOOLHUB_CANARY_SECRET") {
			t.Errorf("the hub's canary reached the server: %s", text)
		}
		if !strings.Contains(text, `"VISIBLE": "yes"`) && !strings.Contains(text, `"VISIBLE":"yes"`) {
			t.Errorf("the configured env is missing: %s", text)
		}
	})
}

// checkEverythingTools checks that get-structured-content's outputSchema
// arrives exactly as the server sent it.
func checkEverythingTools(t *testing.T, d *runningDownstream) {
	t.Helper()
	tools := d.Tools()
	i := slices.IndexFunc(tools, func(r RawTool) bool { return r.Name == "get-structured-content" })
	if i < 0 {
		t.Fatalf("get-structured-content missing from %d tools", len(tools))
	}
	var raw struct {
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal(tools[i].Raw, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.OutputSchema) == 0 || string(raw.OutputSchema) != string(tools[i].OutputSchema) {
		t.Fatalf("outputSchema not kept whole:\nraw  %s\nkept %s", raw.OutputSchema, tools[i].OutputSchema)
	}
	var schema map[string]any
	if err := json.Unmarshal(tools[i].OutputSchema, &schema); err != nil || schema["properties"] == nil {
		t.Fatalf("outputSchema has no properties: %s", tools[i].OutputSchema)
	}
}

func checkGetSum(t *testing.T, d *runningDownstream) {
	t.Helper()
	raw, err := d.Call(t.Context(), "get-sum", json.RawMessage(`{"a":2,"b":3}`), nil)
	if err != nil {
		t.Fatalf("get-sum: %v", err)
	}
	if text := resultText(t, raw); !strings.Contains(text, "5") {
		t.Fatalf("get-sum 2+3 answered %q", text)
	}
}

func TestNPMEverythingStreamableHTTP(t *testing.T) {
	bin := npmBin(t, "mcp-server-everything")
	port := freePort(t)
	startHTTPServer(t, bin, port, "streamableHttp")
	spec := ServerSpec{
		Name: "everything_http", Transport: TransportHTTP,
		URL: fmt.Sprintf("http://127.0.0.1:%d/mcp", port), Locality: LocalityLocal,
	}
	d := runDownstream(t, spec, npmOptions())
	d.waitState(t, StateReady)
	checkEverythingTools(t, d)
	checkGetSum(t, d)
	checkTaskOnlyTool(t, d)
}

func TestNPMFilesystem(t *testing.T) {
	bin := npmBin(t, "mcp-server-filesystem")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("hello from toolhub"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := runDownstream(t, ServerSpec{Name: "fs", Transport: TransportStdio, Command: bin, Args: []string{dir}}, npmOptions())
	d.waitState(t, StateReady)

	args, _ := json.Marshal(map[string]string{"path": filepath.Join(dir, "note.txt")})
	raw, err := d.Call(t.Context(), "read_text_file", args, nil)
	if err != nil || !strings.Contains(resultText(t, raw), "hello from toolhub") {
		t.Fatalf("read_text_file: %s, %v", raw, err)
	}
	// Outside the allowed directory the tool refuses: a result, not an error.
	raw, err = d.Call(t.Context(), "read_text_file", json.RawMessage(`{"path":"/etc/hostname"}`), nil)
	if err != nil {
		t.Fatalf("a refused path returned a Go error: %v", err)
	}
	if !strings.Contains(string(raw), `"isError":true`) || !strings.Contains(resultText(t, raw), "Access denied") {
		t.Fatalf("outside path: %s", raw)
	}
}

func TestNPMMemory(t *testing.T) {
	bin := npmBin(t, "mcp-server-memory")
	memory := filepath.Join(t.TempDir(), "memory.jsonl")
	spec := ServerSpec{Name: "memory", Transport: TransportStdio, Command: bin,
		Env: map[string]string{"MEMORY_FILE_PATH": memory}}
	d := runDownstream(t, spec, npmOptions())
	d.waitState(t, StateReady)

	create := json.RawMessage(`{"entities":[{"name":"toolhub","entityType":"project","observations":["MCP hub"]}]}`)
	if _, err := d.Call(t.Context(), "create_entities", create, nil); err != nil {
		t.Fatalf("create_entities: %v", err)
	}
	raw, err := d.Call(t.Context(), "read_graph", json.RawMessage(`{}`), nil)
	if err != nil || !strings.Contains(resultText(t, raw), "MCP hub") {
		t.Fatalf("read_graph: %s, %v", raw, err)
	}
	stored, err := os.ReadFile(memory)
	if err != nil || !strings.Contains(string(stored), `"toolhub"`) {
		t.Fatalf("memory file %s: %q, %v", memory, stored, err)
	}
}

// freePort returns a TCP port nothing listens on at the moment.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startHTTPServer runs an npm server in HTTP mode on port, in its own process
// group that the test kills at the end, and waits until it accepts
// connections.
func startHTTPServer(t *testing.T, bin string, port int, mode string) {
	t.Helper()
	cmd := exec.Command(bin, mode)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	group, err := proc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = group.Kill()
		_ = cmd.Wait()
		_ = group.Release()
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	waitUntil(t, "the HTTP server on "+addr, func() bool {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
		}
		return err == nil
	}, func() string { return "nothing listens" })
}
