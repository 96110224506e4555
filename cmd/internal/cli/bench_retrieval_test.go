package cli

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/retriever/beir"
	"github.com/toolhub/toolhub/retriever/synthetic"
)

// writeTinyBEIR writes a four-document BEIR dataset with two judged
// queries, each with one relevant document.
func writeTinyBEIR(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "corpus.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	for _, line := range []string{
		`{"_id": "d1", "title": "Coral bleaching", "text": "Warm water bleaches coral reefs."}`,
		`{"_id": "d2", "title": "Bee decline", "text": "Pesticides harm bee colonies."}`,
		`{"_id": "d3", "title": "Soil", "text": "Earthworms aerate soil."}`,
		`{"_id": "d4", "title": "Tides", "text": "The moon drives ocean tides."}`,
	} {
		_, _ = gz.Write([]byte(line + "\n"))
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	writeFile(t, filepath.Join(dir, "queries.jsonl"), `{"_id": "q1", "text": "coral reefs bleach in warm water"}`+"\n"+`{"_id": "q2", "text": "what drives tides"}`+"\n")
	writeFile(t, filepath.Join(dir, "qrels", "test.tsv"), "query-id\tcorpus-id\tscore\r\nq1\td1\t1\r\nq2\td4\t1\r\n")
	return dir
}

func TestBenchRetrievalDataset(t *testing.T) {
	dataset := writeTinyBEIR(t)
	code, out, errOut := runSub(t, newBenchRetrievalCommand, "", "--dataset", dataset, "--json")
	var rep beir.Report
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if rep.Queries != 2 || rep.Documents != 4 || rep.Mode != "bm25" || rep.NDCG10 != 1 || rep.Recall100 != 1 {
		t.Errorf("report: %+v", rep)
	}
	code, out, _ = runSub(t, newBenchRetrievalCommand, "", "--dataset", dataset)
	for _, want := range []string{"2 queries over 4 documents", "nDCG@10     1.0000  (gate ≥ 0.665: pass)", "Recall@100  1.0000"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestBenchRetrievalHybrid(t *testing.T) {
	code, out, errOut := runSub(t, newBenchRetrievalCommand, "", "--dataset", writeTinyBEIR(t), "--embedder", wordHashServer(t, 64), "--embed-model", "words", "--json")
	var rep beir.Report
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if rep.Mode != "hybrid:words@64" || rep.EmbedError != "" || rep.Recall100 != 1 {
		t.Errorf("report: %+v", rep)
	}
}

func TestBenchRetrievalSynthetic(t *testing.T) {
	saved := reopenSynthetic
	reopenSynthetic = nil // the test binary cannot serve as the fresh toolhub process
	t.Cleanup(func() { reopenSynthetic = saved })
	code, out, errOut := runSub(t, newBenchRetrievalCommand, "", "--synthetic", "300", "--dims", "16", "--queries", "10", "--json")
	var rep synthetic.Report
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if rep.Chunks != 300 || rep.Dims != 16 || rep.ChunksPerSec <= 0 || rep.AfterQueries.RSSBytes <= 0 ||
		rep.ReopenedIn != "same process" || rep.ReopenedIdle.RSSBytes <= 0 || rep.RecallQueries != 10 || rep.Recall10 < 0.98 {
		t.Errorf("report: %+v", rep)
	}
}

func TestBenchRetrievalFlags(t *testing.T) {
	for _, args := range [][]string{nil, {"--dataset", "x", "--synthetic", "5"}, {"--synthetic", "-1"}} {
		code, _, errOut := runSub(t, newBenchRetrievalCommand, "", args...)
		if code != exitUsage || !strings.Contains(errOut, "--") {
			t.Errorf("args %v: exit %d, %q; want a usage error", args, code, errOut)
		}
	}
}
