package retriever

import (
	"fmt"
	"strconv"
	"strings"
)

// Badger key layout. Paths are document identities; chunk IDs embed the
// document path and the generation of the version they belong to, so a
// chunk ID alone says whether it is part of the committed version.
const (
	prefixDoc    = "d/" // d/<path> → docRecord
	prefixState  = "s/" // s/<path> → state, present while not committed
	prefixChunk  = "c/" // c/<chunkID> → chunkRecord
	prefixVector = "v/" // v/<chunkID> → little-endian float32s
	prefixCode   = "q/" // q/<chunkID> → row in the code file, unit of the code
	prefixRoot   = "r/" // r/<path> → empty; roots added with IngestPaths
	prefixOmit   = "x/" // x/<path> → empty; removed from under a root
	keyDirty     = "m/dirty"
	keyEmbedder  = "m/embedder"
	keyCodes     = "m/codes" // identity of the code file the q/ keys point into
)

func docKey(path string) []byte   { return []byte(prefixDoc + path) }
func stateKey(path string) []byte { return []byte(prefixState + path) }
func chunkKey(id string) []byte   { return []byte(prefixChunk + id) }
func vectorKey(id string) []byte  { return []byte(prefixVector + id) }
func codeKey(id string) []byte    { return []byte(prefixCode + id) }
func rootKey(path string) []byte  { return []byte(prefixRoot + path) }
func omitKey(path string) []byte  { return []byte(prefixOmit + path) }
func chunkIDOf(path string, gen uint32, ord int) string {
	return path + "#" + strconv.FormatUint(uint64(gen), 10) + "." + strconv.Itoa(ord)
}

// chunkRef is a parsed chunk ID.
type chunkRef struct {
	Path string
	Gen  uint32
	Ord  int
}

// parseChunkID splits "path#gen.ord" at the last '#'.
func parseChunkID(id string) (chunkRef, error) {
	hash := strings.LastIndexByte(id, '#')
	if hash < 0 {
		return chunkRef{}, fmt.Errorf("chunk id %q: no '#'", id)
	}
	genText, ordText, ok := strings.Cut(id[hash+1:], ".")
	if !ok {
		return chunkRef{}, fmt.Errorf("chunk id %q: no generation", id)
	}
	gen, err := strconv.ParseUint(genText, 10, 32)
	if err != nil {
		return chunkRef{}, fmt.Errorf("chunk id %q: generation: %w", id, err)
	}
	ord, err := strconv.Atoi(ordText)
	if err != nil || ord < 0 {
		return chunkRef{}, fmt.Errorf("chunk id %q: bad ordinal", id)
	}
	return chunkRef{Path: id[:hash], Gen: uint32(gen), Ord: ord}, nil
}

// versionChunkIDs lists the chunk IDs of one version of a document.
func versionChunkIDs(path string, v *version) []string {
	if v == nil {
		return nil
	}
	ids := make([]string, v.Chunks)
	for i := range ids {
		ids[i] = chunkIDOf(path, v.Gen, i)
	}
	return ids
}
