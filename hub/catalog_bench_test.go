package hub

import (
	"encoding/json"
	"fmt"
	"testing"
)

const (
	benchServers        = 100
	benchToolsPerServer = 50
)

const benchSchema = `{
	"type": "object",
	"properties": {
		"path": {"type": "string", "minLength": 1},
		"limit": {"type": "integer", "minimum": 1, "maximum": 1000},
		"mode": {"enum": ["fast", "exact"]},
		"filter": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}
	},
	"required": ["path"],
	"additionalProperties": false
}`

// benchServerTools lists the tools of every benchmark server, named like
// real ones ("read_file_17").
func benchServerTools() ([]ServerMeta, [][]RawTool) {
	verbs := []string{"read", "write", "list", "search", "get", "create", "delete", "update"}
	metas := make([]ServerMeta, benchServers)
	tools := make([][]RawTool, benchServers)
	for s := range benchServers {
		metas[s] = ServerMeta{Name: fmt.Sprintf("server-%03d", s), Locality: LocalityLocal}
		tools[s] = make([]RawTool, benchToolsPerServer)
		for i := range benchToolsPerServer {
			tools[s][i] = RawTool{
				Name:        fmt.Sprintf("%s_item_%02d", verbs[i%len(verbs)], i),
				Description: "Does one thing to one item.",
				InputSchema: json.RawMessage(benchSchema),
			}
		}
	}
	return metas, tools
}

func benchCatalog(b *testing.B) *Catalog {
	b.Helper()
	metas, tools := benchServerTools()
	c := NewCatalog(nil)
	for s := range metas {
		c.SetServer(metas[s], tools[s])
	}
	if n := c.Snapshot().Len(); n != benchServers*benchToolsPerServer {
		b.Fatalf("catalog holds %d tools", n)
	}
	return c
}

// BenchmarkCatalogBuild adds 100 servers of 50 tools one SetServer at a
// time, as a hub starting up does; each call publishes a snapshot.
func BenchmarkCatalogBuild(b *testing.B) {
	metas, tools := benchServerTools()
	b.ReportAllocs()
	for b.Loop() {
		c := NewCatalog(nil)
		for s := range metas {
			c.SetServer(metas[s], tools[s])
		}
	}
}

// BenchmarkCatalogSetServer replaces one server's tools in a full catalog,
// as a tools/list_changed notification does.
func BenchmarkCatalogSetServer(b *testing.B) {
	c := benchCatalog(b)
	metas, tools := benchServerTools()
	changed := make([]RawTool, len(tools[0]))
	copy(changed, tools[0])
	changed[0].Description = "Changed."
	versions := [][]RawTool{changed, tools[0]}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c.SetServer(metas[0], versions[i%2])
		i++
	}
}

func BenchmarkLookup(b *testing.B) {
	snap := benchCatalog(b).Snapshot()
	names := toolNames(snap.Tools())
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, ok := snap.Lookup(names[i%len(names)]); !ok {
			b.Fatal("lookup missed")
		}
		i++
	}
}

func BenchmarkTools(b *testing.B) {
	c := benchCatalog(b)
	b.ReportAllocs()
	for b.Loop() {
		if len(c.Snapshot().Tools()) != benchServers*benchToolsPerServer {
			b.Fatal("short listing")
		}
	}
}

func BenchmarkSuggest(b *testing.B) {
	snap := benchCatalog(b).Snapshot()
	snap.Suggest("warmup", 1) // the index is built once per snapshot
	queries := []string{"server-042__raed_item_16", "search_item_03", "server-7__get_item_04"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if len(snap.Suggest(queries[i%len(queries)], 3)) == 0 {
			b.Fatal("no suggestion")
		}
		i++
	}
}

func BenchmarkValidate(b *testing.B) {
	tool, _ := benchCatalog(b).Snapshot().Lookup("server-000__read_item_00")
	cases := []struct {
		name  string
		args  string
		valid bool
	}{
		{"valid", `{"path":"/tmp/a","limit":10,"mode":"fast","filter":{"tags":["x","y"]}}`, true},
		{"invalid", `{"limit":0,"mode":"slow","extra":1,"filter":{"tags":[1]}}`, false},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			args := json.RawMessage(tc.args)
			b.ReportAllocs()
			for b.Loop() {
				if err := tool.ValidateArguments(args); (err == nil) != tc.valid {
					b.Fatalf("unexpected result: %v", err)
				}
			}
		})
	}
}
