package mcp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/toolhub/toolhub/hub"
)

// catalogTool is a tool as a server would list it.
type catalogTool struct{ name, description, schema string }

// realisticCatalog holds tools shaped like those of the reference servers.
var realisticCatalog = map[string][]catalogTool{
	"fs": {
		{"read_text_file", "Read the complete contents of a file from the file system as text.", `{"type":"object","properties":{"path":{"type":"string"},"head":{"type":"number"}}}`},
		{"write_file", "Create a new file or completely overwrite an existing file with new content.", `{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}}}`},
		{"list_directory", "Get a detailed listing of all files and directories in a specified path.", `{"type":"object","properties":{"path":{"type":"string"}}}`},
		{"search_files", "Recursively search for files and directories matching a pattern.", `{"type":"object","properties":{"path":{"type":"string"},"pattern":{"type":"string"}}}`},
		{"move_file", "Move or rename files and directories.", `{"type":"object","properties":{"source":{"type":"string"},"destination":{"type":"string"}}}`},
	},
	"memory": {
		{"create_entities", "Create multiple new entities in the knowledge graph", `{"type":"object","properties":{"entities":{"type":"array"}}}`},
		{"search_nodes", "Search for nodes in the knowledge graph based on a query", `{"type":"object","properties":{"query":{"type":"string"}}}`},
		{"read_graph", "Read the entire knowledge graph", `{"type":"object"}`},
	},
	"github": {
		{"create_issue", "Create a new issue in a GitHub repository", `{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"},"title":{"type":"string"},"body":{"type":"string"}}}`},
		{"list_pull_requests", "List pull requests in a GitHub repository", `{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"},"state":{"type":"string"}}}`},
		{"search_repositories", "Search for GitHub repositories", `{"type":"object","properties":{"query":{"type":"string"}}}`},
	},
	"everything": {
		{"echo", "Echoes back the input", `{"type":"object","properties":{"message":{"type":"string"}}}`},
		{"get-sum", "Returns the sum of two numbers", `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}`},
		{"trigger-long-running-operation", "Demonstrates a long running operation with progress updates", `{"type":"object","properties":{"duration":{"type":"number"},"steps":{"type":"number"}}}`},
	},
}

// snapshotOf builds a real catalog snapshot from tools by server.
func snapshotOf(servers map[string][]catalogTool) *hub.Snapshot {
	cat := hub.NewCatalog(nil)
	for server, tools := range servers {
		raws := make([]hub.RawTool, 0, len(tools))
		for _, t := range tools {
			raws = append(raws, hub.RawTool{Name: t.name, Description: t.description, InputSchema: json.RawMessage(t.schema)})
		}
		cat.SetServer(hub.ServerMeta{Name: server, Locality: hub.LocalityLocal}, raws)
	}
	return cat.Snapshot()
}

func TestFindToolsRanking(t *testing.T) {
	ix := buildSearchIndex(snapshotOf(realisticCatalog))
	tests := []struct {
		query string
		want  string // the best hit
	}{
		{"read a file", "fs__read_text_file"},
		{"create github issue", "github__create_issue"},
		{"sum two numbers", "everything__get-sum"},
		{"open pull requests", "github__list_pull_requests"},
		{"add entities to the knowledge graph", "memory__create_entities"},
		{"longRunning operation", "everything__trigger-long-running-operation"},
		{"find files matching a pattern", "fs__search_files"},
		{"rename a file", "fs__move_file"},
		{"destination", "fs__move_file"},
		{"echo", "everything__echo"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			hits := ix.search(tt.query, 5)
			if len(hits) == 0 || hits[0].Tool.Name != tt.want {
				t.Errorf("best hit for %q = %v, want %s", tt.query, hitNames(hits), tt.want)
			}
			for i := 1; i < len(hits); i++ {
				if hits[i].Score > hits[i-1].Score {
					t.Errorf("hits out of order: %v", hits)
				}
			}
		})
	}
	if hits := ix.search("xyzzy plugh", 5); len(hits) != 0 {
		t.Errorf("nonsense query found %v", hitNames(hits))
	}
	if hits := ix.search("file", 2); len(hits) != 2 {
		t.Errorf("limit 2 gave %d hits", len(hits))
	}
}

func hitNames(hits []searchHit) []string {
	names := make([]string, 0, len(hits))
	for _, h := range hits {
		names = append(names, h.Tool.Name)
	}
	return names
}

func TestSearchIndexIsRebuiltOnlyForANewSnapshot(t *testing.T) {
	cat := hub.NewCatalog(nil)
	cat.SetServer(hub.ServerMeta{Name: "a"}, []hub.RawTool{{Name: "alpha", Description: "first"}})
	var cache indexCache
	first := cache.get(cat.Snapshot())
	if cache.get(cat.Snapshot()) != first {
		t.Error("the same snapshot was indexed twice")
	}
	cat.SetServer(hub.ServerMeta{Name: "b"}, []hub.RawTool{{Name: "beta", Description: "second"}})
	second := cache.get(cat.Snapshot())
	if second == first || len(second.search("second", 5)) != 1 {
		t.Error("a new snapshot did not get a new index")
	}
}

func TestTokenize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"readFile", "read file"},
		{"HTTPServer", "http server"},
		{"get-sum", "get sum"},
		{"fs__read_text_file", "fs read text file"},
		{"search.files", "search file"},
		{"Create multiple new entities", "create multiple new entity"},
		{"searches and classes of boxes", "search class box"},
		{"the status of this process", "status process"},
		{"v2Beta API", "v2 beta api"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(tokenize(tt.in), " "); got != tt.want {
			t.Errorf("tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"readFile", "HTTPServer", "a_b-c.d", "ÉTÉ été", "x\x00y", "ies"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, term := range tokenize(s) {
			if term == "" || stopWords[term] {
				t.Fatalf("tokenize(%q) gave term %q", s, term)
			}
			if strings.IndexFunc(term, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
				t.Fatalf("tokenize(%q) gave term %q with a separator", s, term)
			}
		}
	})
}

func TestFindToolsThroughTheServer(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeSearch})
	c := st.client(t, clientOptions{})
	callTool(t, c, CallToolName, map[string]any{"name": "fix__echo", "arguments": map[string]any{"message": "x"}})
	res := callTool(t, c, FindToolsName, map[string]any{"query": "echo a message", "limit": 2})
	if res.IsError {
		t.Fatal(resultText(res))
	}
	var found struct {
		Tools []foundTool `json:"tools"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &found); err != nil || len(found.Tools) == 0 || len(found.Tools) > 2 {
		t.Fatalf("structured content = %s (%v), want 1 or 2 tools", raw, err)
	}
	top := found.Tools[0]
	if top.Name != "fix__echo" || top.Server != "fix" || top.Locality != hub.LocalityLocal || top.LatencyMs <= 0 {
		t.Errorf("top hit = %+v, want fix__echo with its server, locality and measured latency", top)
	}
	text := resultText(res)
	for _, w := range []string{"fix__echo", "server fix", "local", " ms", "free", "Echo a message back.", "call_tool"} {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	res = callTool(t, c, FindToolsName, map[string]any{})
	if !res.IsError {
		t.Errorf("find_tools without a query = %q, want an error", resultText(res))
	}
	if !slices.Contains(listToolNames(t, c), FindToolsName) {
		t.Error("find_tools is not listed")
	}
}
