package retriever

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// docState is where a document stands in the ingest state machine.
type docState string

const (
	stateCommitted docState = "committed" // Committed is what search sees
	statePending   docState = "pending"   // Pending is staged, not yet visible
	stateDeleting  docState = "deleting"  // being removed; invisible to search
)

// version is one indexed content of a document.
type version struct {
	Gen       uint32    `json:"gen"`
	Hash      string    `json:"hash"`
	Title     string    `json:"title"`
	Kind      string    `json:"kind"`
	Chunks    int       `json:"chunks"`
	Bytes     int64     `json:"bytes"`
	Tokens    int64     `json:"tokens,omitempty"` // analysed tokens over all chunks, for BM25
	IndexedAt time.Time `json:"indexed_at"`
}

// docRecord is the Badger record of one document. Its path is its key,
// not part of the stored JSON: a path is any bytes the file system allows,
// and JSON would replace those that are not UTF-8, making it another path.
type docRecord struct {
	Path      string   `json:"-"`
	State     docState `json:"state"`
	Committed *version `json:"committed,omitempty"`
	Pending   *version `json:"pending,omitempty"`
}

// visibleGen is the generation search may return, or 0 for none.
func (r *docRecord) visibleGen() uint32 {
	if r == nil || r.State == stateDeleting || r.Committed == nil {
		return 0
	}
	return r.Committed.Gen
}

// nextGen is the generation for a new version of the document.
func (r *docRecord) nextGen() uint32 {
	var g uint32
	if r.Committed != nil {
		g = r.Committed.Gen
	}
	if r.Pending != nil && r.Pending.Gen > g {
		g = r.Pending.Gen
	}
	return g + 1
}

// chunkRecord is one stored chunk. Start and End are byte offsets into the
// document's extracted text (for UTF-8 text files, the file itself).
type chunkRecord struct {
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Heading string `json:"heading,omitempty"`
	Text    string `json:"text"`
}

func encodeJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("retriever: encoding %T: %v", v, err)) // only plain structs are encoded
	}
	return b
}

// decodeDoc decodes the record stored under the document key of path.
func decodeDoc(path string, b []byte) (*docRecord, error) {
	var r docRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("decode document record: %w", err)
	}
	r.Path = path
	return &r, nil
}

// encodeChunk packs a chunk as uvarint start, end, heading length, then
// the heading and the text: chunks are read on every search hit, and
// this is several times cheaper to decode than JSON.
func encodeChunk(c chunkRecord) []byte {
	b := make([]byte, 0, 3*binary.MaxVarintLen64+len(c.Heading)+len(c.Text))
	b = binary.AppendUvarint(b, uint64(c.Start))
	b = binary.AppendUvarint(b, uint64(c.End))
	b = binary.AppendUvarint(b, uint64(len(c.Heading)))
	b = append(b, c.Heading...)
	return append(b, c.Text...)
}

func decodeChunk(b []byte) (chunkRecord, error) {
	var fields [3]uint64
	for i := range fields {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return chunkRecord{}, errors.New("decode chunk record: truncated header")
		}
		fields[i], b = v, b[n:]
	}
	if fields[2] > uint64(len(b)) || fields[0] > fields[1] {
		return chunkRecord{}, errors.New("decode chunk record: bad lengths")
	}
	return chunkRecord{
		Start:   int(fields[0]),
		End:     int(fields[1]),
		Heading: string(b[:fields[2]]),
		Text:    string(b[fields[2]:]),
	}, nil
}

// encodeVector stores a vector as little-endian float32s.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// decodeVector fills v from little-endian float32s.
func decodeVector(b []byte, v []float32) error {
	if len(b) != 4*len(v) {
		return fmt.Errorf("vector of %d bytes, want %d for %d dimensions", len(b), 4*len(v), len(v))
	}
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return nil
}
