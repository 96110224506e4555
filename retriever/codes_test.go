package retriever

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dgraph-io/badger/v4"
)

// assertCodesConsistent checks the code file against Badger: every
// committed chunk with a float vector has a q/ entry naming a row of its
// own, that row holds the int8 code of the float vector, and the vector
// set serves exactly those chunks.
func assertCodesConsistent(t *testing.T, ix *Index) {
	t.Helper()
	gens, err := loadGenerations(ix.db)
	if err != nil {
		t.Fatal(err)
	}
	dims := ix.vec.dims
	rowOf := map[int]string{}
	want := make([]byte, dims)
	live := 0
	err = eachKey(ix.db, prefixVector, true, func(id string, val []byte) error {
		ref, err := parseChunkID(id)
		if err != nil || gens[ref.Path].committed != ref.Gen {
			return nil
		}
		live++
		v := make([]float32, dims)
		if err := decodeVector(val, v); err != nil {
			return err
		}
		raw, err := getValue(ix.db, prefixCode+id)
		if err != nil || raw == nil {
			t.Errorf("chunk %s has a vector but no code entry (%v)", id, err)
			return nil
		}
		row, scale, err := decodeCode(raw)
		if err != nil {
			return err
		}
		if other, dup := rowOf[row]; dup {
			t.Errorf("row %d holds both %s and %s", row, other, id)
		}
		rowOf[row] = id
		if got, ok := ix.vec.rows[id]; !ok || got != row {
			t.Errorf("chunk %s: searched in row %d (%v), recorded in row %d", id, got, ok, row)
		}
		wantScale := quantize(v, want)
		if row >= ix.vec.codes.rows || !bytes.Equal(ix.vec.codes.row(row), want) || scale != wantScale {
			t.Errorf("chunk %s: row %d does not hold the code of its vector", id, row)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if ix.vec.size() != live {
		t.Errorf("vector set serves %d chunks, %d committed chunks have a vector", ix.vec.size(), live)
	}
}

var codeDocs = []Document{
	{Path: "z/1", Text: "Otters hold hands while they sleep."},
	{Path: "z/2", Text: "Octopuses have three hearts."},
	{Path: "z/3", Text: "Wombats leave cube-shaped droppings."},
	{Path: "z/4", Text: "Sloths can hold their breath longer than dolphins."},
}

// nearestPath is the path of the top vector hit for text.
func nearestPath(t *testing.T, ix *Index, text string) string {
	t.Helper()
	got := searchPaths(t, ix, Query{Text: text, Mode: ModeVector, K: 1})
	if len(got) != 1 {
		t.Fatalf("vector search %q: %v", text, got)
	}
	return got[0]
}

func TestCodesSurviveReopenAfterChanges(t *testing.T) {
	dir, emb := t.TempDir(), &hashEmbedder{model: "hash", dims: 64}
	ix := openIndexAt(t, dir, Options{Embedder: emb})
	ctx := context.Background()
	if _, err := ix.IngestDocuments(ctx, codeDocs, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	changed := []Document{{Path: "z/2", Text: "Flamingos are pink from their food."}}
	if _, err := ix.IngestDocuments(ctx, changed, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Remove(ctx, "z/3"); err != nil {
		t.Fatal(err)
	}
	assertCodesConsistent(t, ix)
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix = openIndexAt(t, dir, Options{Embedder: emb})
	if ix.recoded != 0 {
		t.Errorf("a clean reopen coded %d vectors again", ix.recoded)
	}
	assertCodesConsistent(t, ix)
	if got := nearestPath(t, ix, "flamingos pink food"); got != "z/2" {
		t.Errorf("replaced document: nearest is %s", got)
	}
	if got := nearestPath(t, ix, "wombats cube-shaped droppings"); got == "z/3" {
		t.Errorf("removed document still found by vector")
	}
}

func TestCodesRebuiltWhenCodeFileLost(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(path string) error
	}{
		{"deleted", os.Remove},
		{"truncated", func(p string) error { return os.Truncate(p, codeHeaderBytes+10) }},
		{"replaced", func(p string) error {
			cf, err := openCodeFile(p+".new", 64)
			if err != nil {
				return err
			}
			if err := cf.close(); err != nil {
				return err
			}
			return os.Rename(p+".new", p)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, emb := t.TempDir(), &hashEmbedder{model: "hash", dims: 64}
			ix := openIndexAt(t, dir, Options{Embedder: emb})
			if _, err := ix.IngestDocuments(context.Background(), codeDocs, IngestOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := ix.Close(); err != nil {
				t.Fatal(err)
			}
			if err := tc.spoil(filepath.Join(dir, codeFileName)); err != nil {
				t.Fatal(err)
			}
			calls := emb.calls.Load()
			ix = openIndexAt(t, dir, Options{Embedder: emb})
			if ix.recoded == 0 {
				t.Error("no vector coded again after the code file was spoiled")
			}
			assertCodesConsistent(t, ix)
			if got := nearestPath(t, ix, "octopuses three hearts"); got != "z/2" {
				t.Errorf("nearest after rebuilding the codes: %s", got)
			}
			if emb.calls.Load() != calls+1 { // the query only
				t.Errorf("rebuilding the codes called the embedder %d times", emb.calls.Load()-calls-1)
			}
		})
	}
}

func TestCodesAfterInterruptedEmbed(t *testing.T) {
	dir, emb := t.TempDir(), &hashEmbedder{model: "hash", dims: 64}
	ix := openIndexAt(t, dir, Options{Embedder: emb})
	ctx := context.Background()
	if _, err := ix.IngestDocuments(ctx, codeDocs[:2], IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	ix.failAfter = func(stage string) error {
		if stage == stageCoded {
			return errCrash
		}
		return nil
	}
	rep, err := ix.IngestDocuments(ctx, codeDocs[2:], IngestOptions{})
	if err != nil || rep.Embedded != 0 || rep.Unembedded != 2 {
		t.Fatalf("ingest stopped between code and record: %+v, %v", rep, err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix = openIndexAt(t, dir, Options{Embedder: emb})
	assertCodesConsistent(t, ix)
	if n := ix.vec.size(); n != 2 {
		t.Fatalf("%d vectors served after the interrupted embed, want 2", n)
	}
	rep, err = ix.IngestDocuments(ctx, codeDocs, IngestOptions{})
	if err != nil || rep.Embedded != 2 || rep.Unembedded != 0 {
		t.Fatalf("next ingest: %+v, %v", rep, err)
	}
	assertCodesConsistent(t, ix)
	if ix.vec.codes.rows > 1024 {
		t.Errorf("code file grew to %d rows for 4 vectors", ix.vec.codes.rows)
	}
	got := []string{nearestPath(t, ix, "wombats cube-shaped droppings"), nearestPath(t, ix, "sloths hold breath dolphins")}
	if !slices.Equal(got, []string{"z/3", "z/4"}) {
		t.Errorf("nearest to the late documents: %v", got)
	}
}

func TestCodeEntryWithoutVectorDropped(t *testing.T) {
	dir, emb := t.TempDir(), &hashEmbedder{model: "hash", dims: 64}
	ix := openIndexAt(t, dir, Options{Embedder: emb})
	if _, err := ix.IngestDocuments(context.Background(), codeDocs, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	id := chunkIDOf("z/1", 1, 0)
	if err := ix.db.Update(func(txn *badger.Txn) error { return txn.Delete(vectorKey(id)) }); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix = openIndexAt(t, dir, Options{Embedder: emb})
	assertCodesConsistent(t, ix)
	if raw, err := getValue(ix.db, prefixCode+id); err != nil || raw != nil {
		t.Errorf("code entry of a chunk without vector kept: %v, %v", raw, err)
	}
	if ix.vec.has(id) {
		t.Error("chunk without vector is searched")
	}
}
