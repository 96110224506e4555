package retriever

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

var errCrash = errors.New("simulated crash")

// TestCrashBetweenStages stops commits and removals after each stage, as
// a crash would, and checks that Open finishes the work.
func TestCrashBetweenStages(t *testing.T) {
	for _, stage := range []string{stageStaged, stageIndexed, stageMarked} {
		t.Run(stage, func(t *testing.T) {
			dir, src := t.TempDir(), t.TempDir()
			writeTree(t, src, map[string]string{"a.txt": "version one gecko", "b.txt": "beaver"})
			ix := openIndexAt(t, dir, Options{})
			ingestPaths(t, ix, src)

			ix.failAfter = func(s string) error {
				if s == stage {
					return errCrash
				}
				return nil
			}
			writeTree(t, src, map[string]string{"a.txt": "version two iguana"})
			var err error
			if stage == stageMarked {
				_, err = ix.Remove(context.Background(), filepath.Join(src, "b.txt"))
			} else {
				_, err = ix.IngestPaths(context.Background(), []string{src}, IngestOptions{})
			}
			if !errors.Is(err, errCrash) {
				t.Fatalf("err = %v, want the simulated crash", err)
			}
			if got := searchPaths(t, ix, Query{Text: "iguana"}); len(got) != 0 && stage != stageMarked {
				t.Errorf("a half-committed version is visible: %v", got)
			}
			if err := ix.Close(); err != nil {
				t.Fatal(err)
			}

			ix = openIndexAt(t, dir, Options{})
			assertConsistent(t, ix)
			switch stage {
			case stageMarked:
				if got := searchPaths(t, ix, Query{Text: "beaver"}); len(got) != 0 {
					t.Errorf("removal not finished: %v", got)
				}
			default:
				if got := searchPaths(t, ix, Query{Text: "iguana"}); len(got) != 1 {
					t.Errorf("staged version not finished: %v", got)
				}
				if got := searchPaths(t, ix, Query{Text: "gecko"}); len(got) != 0 {
					t.Errorf("replaced version still found: %v", got)
				}
			}
		})
	}
}

// TestKillDuringIngest runs a real ingest in a child process, kills it
// with SIGKILL part-way, then checks the index: it opens, holds only
// committed chunks, agrees with itself, and the next ingest completes it.
func TestKillDuringIngest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a child process")
	}
	bin := buildIngestChild(t)
	src, dir := t.TempDir(), t.TempDir()
	const files = 1000
	writeCorpus(t, src, files)

	indexed := killChildAfter(t, "indexed ", files/5, bin, dir, src)

	ix := openIndexAt(t, dir, Options{})
	st := assertConsistent(t, ix)
	t.Logf("killed after %d documents reported; %d committed on reopen", indexed, st.Documents)
	if st.Documents < indexed || st.Documents >= files {
		t.Errorf("%d documents committed, want between %d and %d", st.Documents, indexed, files-1)
	}
	res, err := ix.Search(context.Background(), Query{Text: "common", K: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 {
		t.Fatal("no hits for a word in every document")
	}

	rep := ingestPaths(t, ix, src)
	if rep.Indexed+rep.Unchanged != files || rep.Failed != 0 {
		t.Fatalf("finishing ingest: %+v", rep)
	}
	st = assertConsistent(t, ix)
	if st.Documents != files {
		t.Fatalf("%d documents after finishing, want %d", st.Documents, files)
	}
	for _, i := range []int{0, files / 2, files - 1} {
		want := filepath.Join(src, fmt.Sprintf("d%02d", i%10), fmt.Sprintf("f%04d.md", i))
		if got := searchPaths(t, ix, Query{Text: fmt.Sprintf("token%04d", i)}); len(got) != 1 || got[0] != want {
			t.Errorf("unique token of file %d: %v", i, got)
		}
	}
}

// TestKillDuringEmbedding kills a child process while it stores vectors,
// then checks that the reopened index's codes agree with its vectors and
// that the next ingest completes them.
func TestKillDuringEmbedding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a child process")
	}
	bin := buildIngestChild(t)
	src, dir := t.TempDir(), t.TempDir()
	const files, dims = 1500, 32
	writeCorpus(t, src, files)
	embedded := killChildAfter(t, "embedded ", 2*embedBatchChunks, bin, dir, src, strconv.Itoa(dims))

	emb := &hashEmbedder{model: "wordhash", dims: dims} // same name: the stored vectors stay
	ix := openIndexAt(t, dir, Options{Embedder: emb, ChunkBytes: 256})
	assertConsistent(t, ix)
	assertCodesConsistent(t, ix)
	st, err := ix.Status()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("killed after %d vectors reported; %d served on reopen of %d chunks", embedded, st.Vectors, st.Chunks)
	if st.Vectors < embedded || st.Vectors >= st.Chunks {
		t.Errorf("%d vectors after the kill, want between %d and %d", st.Vectors, embedded, st.Chunks-1)
	}
	rep := ingestPaths(t, ix, src)
	if rep.Indexed != 0 || rep.Embedded != st.Chunks-st.Vectors || rep.Unembedded != 0 {
		t.Fatalf("finishing ingest: %+v", rep)
	}
	assertCodesConsistent(t, ix)
}

// killChildAfter runs bin with args, reads its "<prefix>N" progress lines
// until N reaches at least until, kills it with SIGKILL and checks it died
// of that; it returns the last N reported.
func killChildAfter(t *testing.T, prefix string, until int, bin string, args ...string) int {
	t.Helper()
	cmd := exec.Command(bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	done := 0
	for sc.Scan() && done < until {
		if n, ok := strings.CutPrefix(sc.Text(), prefix); ok {
			done, _ = strconv.Atoi(n)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child was not killed mid-way (%s%d): %v (stderr %s)", prefix, done, err, stderr.String())
	}
	return done
}

// writeCorpus writes n Markdown files of a few chunks each, with a unique
// token per file and a word common to all.
func writeCorpus(t *testing.T, dir string, n int) {
	t.Helper()
	para := strings.Repeat("common words fill this paragraph so that it spans a chunk. ", 4)
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i%10))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf("# File %d\n\ntoken%04d starts here.\n\n%s\n\n## More\n\n%s\n", i, i, para, para)
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%04d.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func buildIngestChild(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), testenv.Exe("ingestchild"))
	cmd := exec.Command("go", "build", "-o", bin, "./internal/ingestchild")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the ingest child: %v\n%s", err, out)
	}
	return bin
}
