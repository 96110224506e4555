package retriever

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
)

// prepare turns a job into a document ready to commit, or into the event
// that says why there is nothing to commit.
func (ix *Index) prepare(j job, maxBytes int64) outcome {
	if j.doc != nil {
		return ix.prepareDocument(*j.doc)
	}
	return ix.prepareFile(j, maxBytes)
}

func (ix *Index) prepareFile(j job, maxBytes int64) outcome {
	path := j.path
	if err := skipByName(path); err != nil {
		return eventOutcome(EventSkipped, path, err.Error())
	}
	if ix.beforeRead != nil {
		ix.beforeRead(path)
	}
	data, err := readConfined(j.root, j.rel, maxBytes)
	var skip *skipError
	switch {
	case errors.Is(err, errOutsideRoot):
		return eventOutcome(EventSkipped, path, err.Error())
	case errors.As(err, &skip):
		return eventOutcome(EventSkipped, path, skip.reason)
	case errors.Is(err, fs.ErrNotExist):
		return eventOutcome(EventSkipped, path, "deleted before it could be read")
	case err != nil:
		return eventOutcome(EventFailed, path, fmt.Sprintf("read: %v", err))
	}
	if int64(len(data)) > maxBytes {
		return eventOutcome(EventSkipped, path, fmt.Sprintf("%s, over the %s size cap", humanBytes(int64(len(data))), humanBytes(maxBytes)))
	}
	hash := ix.contentHash(data)
	if ix.unchanged(path, hash) {
		return eventOutcome(EventUnchanged, path, "")
	}
	ex, err := extract(path, data)
	if errors.As(err, &skip) {
		return eventOutcome(EventSkipped, path, skip.reason)
	}
	if err != nil {
		return eventOutcome(EventFailed, path, err.Error())
	}
	return ix.prepareText(path, hash, ex, int64(len(data)))
}

func (ix *Index) prepareDocument(d Document) outcome {
	hash := ix.contentHash([]byte(d.Kind + "\x00" + d.Title + "\x00" + d.Text))
	if ix.unchanged(d.Path, hash) {
		return eventOutcome(EventUnchanged, d.Path, "")
	}
	kind := KindText
	if d.Kind == KindMarkdown {
		kind = KindMarkdown
	}
	ex := extracted{kind: kind, title: validText(d.Title), text: validText(d.Text), markdown: kind == KindMarkdown}
	return ix.prepareText(d.Path, hash, ex, int64(len(d.Text)))
}

// prepareText chunks extracted text.
func (ix *Index) prepareText(path, hash string, ex extracted, size int64) outcome {
	chunks := chunkText(ex.text, ex.markdown, ix.opts.ChunkBytes)
	if len(chunks) == 0 && ex.title == "" {
		return eventOutcome(EventSkipped, path, "no text to index")
	}
	if len(chunks) == 0 {
		chunks = []chunkRecord{{Text: ""}} // title only: still findable
	}
	return outcome{prepared: &preparedDoc{
		path:   path,
		ver:    version{Hash: hash, Title: ex.title, Kind: ex.kind, Bytes: size, Tokens: ix.ft.countTokens(ex.title, chunks)},
		chunks: chunks,
	}}
}

// contentHash covers the content and the chunk size, so that a new chunk
// size re-indexes documents on the next ingest.
func (ix *Index) contentHash(data []byte) string {
	h := sha256.New()
	h.Write([]byte("v1 chunk=" + strconv.Itoa(ix.opts.ChunkBytes) + "\n"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// unchanged reports whether path is committed with this content hash.
func (ix *Index) unchanged(path, hash string) bool {
	rec, err := loadDoc(ix.db, path)
	return err == nil && rec != nil && rec.State == stateCommitted && rec.Committed != nil && rec.Committed.Hash == hash
}

func eventOutcome(kind EventKind, path, reason string) outcome {
	return outcome{event: Event{Kind: kind, Path: path, Reason: reason}}
}
