package retriever

import (
	"context"
	"path/filepath"
	"testing"
)

// countingEmbedder counts the texts it embeds.
type countingEmbedder struct {
	hashEmbedder
	texts int
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string, role Role) ([][]float32, error) {
	if role == RoleDocument {
		c.texts += len(texts)
	}
	return c.hashEmbedder.Embed(ctx, texts, role)
}

// TestOneFileAddEmbedsOnlyItsChunks changes the embedder's dimension,
// which drops every vector, then adds one file: only that file's chunks
// are embedded and the report says how many are left without; a refresh
// computes the rest.
func TestOneFileAddEmbedsOnlyItsChunks(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	files := map[string]string{"new.txt": "Pangolins roll into balls."}
	for i := range 20 {
		files[filepath.Join("old", string(rune('a'+i))+".txt")] = "Kestrels hover over fields number " + string(rune('a'+i))
	}
	writeTree(t, src, files)
	old := &countingEmbedder{hashEmbedder: hashEmbedder{model: "m", dims: 32}}
	ix := openIndexAt(t, dir, Options{Embedder: old})
	ingestPaths(t, ix, filepath.Join(src, "old"))
	if old.texts != 20 {
		t.Fatalf("first ingest embedded %d chunks, want 20", old.texts)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	wider := &countingEmbedder{hashEmbedder: hashEmbedder{model: "m", dims: 48}}
	ix = openIndexAt(t, dir, Options{Embedder: wider})
	rep := ingestPaths(t, ix, filepath.Join(src, "new.txt"))
	if wider.texts != 1 || rep.Embedded != 1 || rep.Unembedded != 20 {
		t.Fatalf("one-file add after a dimension change embedded %d chunks (report %d, %d left); want 1 and 20 left",
			wider.texts, rep.Embedded, rep.Unembedded)
	}
	rep, err := ix.IngestPaths(context.Background(), nil, IngestOptions{})
	if err != nil || wider.texts != 21 || rep.Embedded != 20 || rep.Unembedded != 0 {
		t.Fatalf("refresh: embedded %d in all, report %+v, %v", wider.texts, rep, err)
	}
	assertCodesConsistent(t, ix)
}
