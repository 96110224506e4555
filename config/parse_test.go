package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParseGolden parses every testdata/parse/*.jsonc and compares either
// the problems or a description of the result with the .golden file beside it.
func TestParseGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/parse/*.jsonc")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".jsonc")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Parse(filepath.Base(in), data)
			checkGolden(t, strings.TrimSuffix(in, ".jsonc")+".golden", []byte(parseOutcome(t, f, err)))
		})
	}
}

// parseOutcome renders what Parse returned, checking that an error is
// always a *ProblemsError with positioned problems.
func parseOutcome(t *testing.T, f *File, err error) string {
	t.Helper()
	if err == nil {
		return describeFile(f)
	}
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("error is %T, want *ProblemsError: %v", err, err)
	}
	for _, p := range pe.Problems {
		if p.Line < 1 || p.Col < 1 {
			t.Errorf("problem without a position: %+v", p)
		}
	}
	return "problems:\n" + err.Error() + "\n"
}

// describeFile prints a parsed file in a stable, readable form.
func describeFile(f *File) string {
	var b strings.Builder
	b.WriteString(describeServers(f.MCPServers))
	d := f.Documents
	fmt.Fprintf(&b, "documents: dir=%q roots=%q exclude=%q maxFileBytes=%d\n", d.Dir, d.Roots, d.Exclude, d.MaxFileBytes)
	if d.Embedder != nil {
		fmt.Fprintf(&b, "embedder: %+v\n", *d.Embedder)
	}
	fmt.Fprintf(&b, "models=%s orchestrator=%s preferences=%s http=%s\n", f.Models, f.Orchestrator, f.Preferences, f.HTTP)
	return b.String()
}

// describeServers prints servers sorted by name, one block each.
func describeServers(servers map[string]Server) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		s := servers[name]
		fmt.Fprintf(&b, "server %s: type=%s locality=%s enabled=%v\n", name, s.Type, DefaultLocality(s), s.IsEnabled())
		fmt.Fprintf(&b, "  command=%q args=%q cwd=%q url=%q\n", s.Command, s.Args, s.Cwd, s.URL)
		fmt.Fprintf(&b, "  env=%q headers=%q\n", s.Env, s.Headers)
		if o := s.OAuth; o != nil {
			fmt.Fprintf(&b, "  oauth: clientId=%q clientSecret=%q scopes=%q authServerMetadataUrl=%q\n", o.ClientID, o.ClientSecret, o.Scopes, o.AuthServerMetadataURL)
		}
		fmt.Fprintf(&b, "  disabledTools=%q timeout=%v costPerCall=%v\n", s.DisabledTools, s.Timeout, s.CostPerCall)
		if s.CostPerSecond != 0 {
			fmt.Fprintf(&b, "  costPerSecond=%v\n", s.CostPerSecond)
		}
	}
	return b.String()
}

func TestDefaults(t *testing.T) {
	tests := []struct {
		name         string
		server       string
		wantType     string
		wantLocality string
	}{
		{"stdio is local", `{"command": "x"}`, TypeStdio, LocalityLocal},
		{"stdio marked remote", `{"command": "x", "locality": "remote"}`, TypeStdio, LocalityRemote},
		{"public url is remote", `{"url": "https://example.com/mcp"}`, TypeHTTP, LocalityRemote},
		{"localhost is local", `{"url": "http://localhost:8080/mcp"}`, TypeHTTP, LocalityLocal},
		{"LOCALHOST. is local", `{"url": "http://LOCALHOST.:8080/mcp"}`, TypeHTTP, LocalityLocal},
		{"127.0.0.1 is local", `{"url": "http://127.0.0.1:9000/sse"}`, TypeSSE, LocalityLocal},
		{"127.8.9.10 is local", `{"url": "http://127.8.9.10/mcp"}`, TypeHTTP, LocalityLocal},
		{"::1 is local", `{"url": "http://[::1]:3001/mcp"}`, TypeHTTP, LocalityLocal},
		{"lan address is remote", `{"url": "http://192.168.1.5/mcp"}`, TypeHTTP, LocalityRemote},
		{"localhost lookalike is remote", `{"url": "http://localhost.example.com/mcp"}`, TypeHTTP, LocalityRemote},
		{"remote url marked local", `{"url": "https://box.lan/mcp", "locality": "local"}`, TypeHTTP, LocalityLocal},
		{"sse path guessed", `{"url": "https://example.com/sse/"}`, TypeSSE, LocalityRemote},
		{"explicit type wins over path", `{"type": "http", "url": "https://example.com/sse"}`, TypeHTTP, LocalityRemote},
		{"streamable-http", `{"type": "streamable-http", "url": "https://example.com/x"}`, TypeHTTP, LocalityRemote},
		{"streamableHttp", `{"type": "streamableHttp", "url": "https://example.com/x"}`, TypeHTTP, LocalityRemote},
		{"explicit stdio", `{"type": "stdio", "command": "x"}`, TypeStdio, LocalityLocal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("t.json", []byte(`{"mcpServers": {"s": `+tt.server+`}}`))
			if err != nil {
				t.Fatal(err)
			}
			s := f.MCPServers["s"]
			if s.Type != tt.wantType || DefaultLocality(s) != tt.wantLocality {
				t.Errorf("type %q locality %q, want %q %q", s.Type, DefaultLocality(s), tt.wantType, tt.wantLocality)
			}
		})
	}
}

func TestTimeouts(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		want    time.Duration
		wantErr string
	}{
		{"duration string", `"30s"`, 30 * time.Second, ""},
		{"minutes", `"2m"`, 2 * time.Minute, ""},
		{"whole seconds", `45`, 45 * time.Second, ""},
		{"fractional seconds", `1.5`, 1500 * time.Millisecond, ""},
		{"zero", `0`, 0, ""},
		{"negative number", `-1`, 0, "want a duration"},
		{"negative string", `"-5s"`, 0, "want a duration"},
		{"no unit", `"30"`, 0, "want a duration"},
		{"huge", `1e300`, 0, "want a duration"},
		{"bool", `true`, 0, "want a number, got a boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := parseServerEntry(t, `, "timeout": `+tt.value, tt.wantErr)
			if !ok {
				return
			}
			if got := f.MCPServers["s"].Timeout; got != tt.want {
				t.Errorf("timeout %v, want %v", got, tt.want)
			}
		})
	}
}

func TestMaxClientSessions(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		want    int
		wantErr string
	}{
		{"one", `1`, 1, ""},
		{"many", `32`, 32, ""},
		{"the most", `256`, 256, ""},
		{"zero", `0`, 0, "want a whole number from 1 to 256, got 0"},
		{"too many", `257`, 0, "want a whole number from 1 to 256, got 257"},
		{"negative", `-2`, 0, "want a whole number >= 0"},
		{"fraction", `2.5`, 0, "want a whole number >= 0"},
		{"string", `"8"`, 0, "want a whole number, got a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `{"mcpServers": {"s": {"command": "x", "maxClientSessions": ` + tt.value + `}}}`
			f, err := Parse("t.json", []byte(src))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "t.json:1:") {
					t.Fatalf("error %v, want one at t.json:1 containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := f.MCPServers["s"]
			if s.MaxClientSessions != tt.want {
				t.Errorf("maxClientSessions %d, want %d", s.MaxClientSessions, tt.want)
			}
			specs, err := f.Specs(func(string) (string, bool) { return "", false })
			if err != nil || len(specs) != 1 || specs[0].MaxClientSessions != tt.want {
				t.Errorf("spec %+v (%v), want MaxClientSessions %d", specs, err, tt.want)
			}
			out, err := marshalServer(s, "", "  ", true)
			if err != nil || !strings.Contains(string(out), `"maxClientSessions": `+tt.value) {
				t.Errorf("written back as %s (%v)", out, err)
			}
		})
	}
}

// parseServerEntry parses a config whose one server "s" runs "x" and has
// the members rest adds. With wantErr it checks the error says so and
// returns false.
func parseServerEntry(t *testing.T, rest, wantErr string) (*File, bool) {
	t.Helper()
	f, err := Parse("t.json", []byte(`{"mcpServers": {"s": {"command": "x"`+rest+`}}}`))
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("error %v, want one containing %q", err, wantErr)
		}
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return f, true
}

// TestClientRoots reads the three settings of "clientRoots": true gives
// each client a session from the first call, false gives the server no
// client's roots, and without the key the server decides by asking.
func TestClientRoots(t *testing.T) {
	for _, tt := range []struct {
		name, entry   string
		force, refuse bool
		written       string // "" when not written back
		wantErr       string
	}{
		{"true", `, "clientRoots": true`, true, false, `"clientRoots": true`, ""},
		{"false", `, "clientRoots": false`, false, true, `"clientRoots": false`, ""},
		{"absent", ``, false, false, "", ""},
		{"not a boolean", `, "clientRoots": "no"`, false, false, "", "want true or false"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := parseServerEntry(t, tt.entry, tt.wantErr)
			if !ok {
				return
			}
			s := f.MCPServers["s"]
			specs, err := f.Specs(func(string) (string, bool) { return "", false })
			if err != nil || len(specs) != 1 || specs[0].ClientRoots != tt.force || specs[0].NoClientRoots != tt.refuse {
				t.Fatalf("spec %+v (%v), want ClientRoots %v, NoClientRoots %v", specs, err, tt.force, tt.refuse)
			}
			out, err := marshalServer(s, "", "  ", true)
			if err != nil || strings.Contains(string(out), "clientRoots") != (tt.written != "") ||
				(tt.written != "" && !strings.Contains(string(out), tt.written)) {
				t.Errorf("written back as %s (%v), want %q", out, err, tt.written)
			}
		})
	}
}

func TestProblemsAreSorted(t *testing.T) {
	src := "{\n \"mcpServers\": {\n  \"b\": {},\n  \"a\": {\"command\": 1}\n },\n \"zzz\": 1\n}"
	_, err := Parse("f.json", []byte(src))
	var pe *ProblemsError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v", err)
	}
	lines := make([]int, len(pe.Problems))
	for i, p := range pe.Problems {
		lines[i] = p.Line
	}
	if !slices.IsSorted(lines) || len(lines) != 3 {
		t.Errorf("problem lines %v, want 3 sorted", lines)
	}
}

func TestDidYouMean(t *testing.T) {
	tests := []struct{ got, want string }{
		{"mcpServer", ` (did you mean "mcpServers"?)`},
		{"MCPServers", ` (did you mean "mcpServers"?)`},
		{"documnets", ` (did you mean "documents"?)`},
		{"banana", ""},
		{"x", ""},
	}
	for _, tt := range tests {
		if got := didYouMean(tt.got, topKeys); got != tt.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tt.got, got, tt.want)
		}
	}
}
