package cli

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/retriever"
)

// wordHashServer is an OpenAI-compatible embeddings endpoint whose
// vectors hash the words of each input, so texts sharing words are close.
func wordHashServer(t *testing.T, dims int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float64 `json:"embedding"`
		}
		var resp struct {
			Data []item `json:"data"`
		}
		for i, text := range req.Input {
			v := make([]float64, dims)
			for _, word := range strings.Fields(strings.ToLower(text)) {
				h := fnv.New32a()
				h.Write([]byte(strings.Trim(word, ".,")))
				v[h.Sum32()%uint32(dims)]++
			}
			v[0] += 1e-3 * math.Sqrt(float64(i+1))
			resp.Data = append(resp.Data, item{Index: i, Embedding: v})
		}
		_ = json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestSearchCommand(t *testing.T) {
	src, idx := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(src, "notes", "arctic.md"), "# Arctic\n\nThe walrus basks on sea ice.")
	writeFile(t, filepath.Join(src, "other", "desert.txt"), "Camels cross the walrus-free desert.")
	cfg := docsConfig(t, fmt.Sprintf(`{"dir": %q}`, idx))
	if code, out, errOut := runSub(t, newIndexCommand, cfg, "add", src); code != 0 {
		t.Fatalf("add: %s%s", out, errOut)
	}

	code, out, _ := runSub(t, newSearchCommand, cfg, "walrus", "ice")
	for _, want := range []string{"mode bm25", "note: no embedding endpoint configured: BM25 only", "1. " + filepath.Join(src, "notes", "arctic.md") + " › Arctic", "**walrus**"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("search output lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = runSub(t, newSearchCommand, cfg, "--json", "--path-prefix", filepath.Join(src, "other"), "walrus")
	var res retriever.Results
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || len(res.Hits) != 1 || !strings.HasSuffix(res.Hits[0].Path, "desert.txt") {
		t.Fatalf("search --json --path-prefix: exit %d, %v: %s", code, err, out)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--mode", "vector", "walrus"}, "set documents.embedder"},
		{[]string{"--mode", "fuzzy", "walrus"}, `--mode "fuzzy"`},
		{[]string{"--k", "0", "walrus"}, "--k 0"},
		{nil, "requires at least 1 arg"},
	} {
		code, _, errOut := runSub(t, newSearchCommand, cfg, tc.args...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("search %v: exit %d, %q; want usage error with %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestSearchCommandHybrid(t *testing.T) {
	src, idx := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(src, "a.txt"), "Puffins nest on cliffs.")
	writeFile(t, filepath.Join(src, "b.txt"), "Moles dig tunnels.")
	cfg := docsConfig(t, fmt.Sprintf(`{"dir": %q, "embedder": {"url": %q, "model": "words"}}`, idx, wordHashServer(t, 32)))
	code, out, errOut := runSub(t, newIndexCommand, cfg, "add", src)
	if code != 0 || !strings.Contains(out, "embedded 2 chunks") {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runSub(t, newSearchCommand, cfg, "--json", "moles", "tunnels")
	var res retriever.Results
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("search: exit %d, %v: %s", code, err, out)
	}
	if res.Mode != "hybrid:words@32" || len(res.Hits) == 0 || !strings.HasSuffix(res.Hits[0].Path, "b.txt") {
		t.Errorf("results: %+v", res)
	}
	code, out, _ = runSub(t, newIndexCommand, cfg, "status")
	if code != 0 || !strings.Contains(out, "embedder:   words (dimensions from the endpoint)") || !strings.Contains(out, "vectors:    2 from words@32") {
		t.Errorf("status:\n%s", out)
	}
}
