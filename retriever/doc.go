// Package retriever is toolhub's private document index: files and folders
// are read, turned into text, cut into chunks and indexed on the local disk.
//
// Badger is the source of truth. It holds one record per document, the
// chunks (text, byte offsets, heading path), content hashes and, when an
// embedding endpoint is configured, one float32 vector per chunk. Bleve holds
// the full-text index with the BM25 scoring model.
//
// For search the vectors are kept compact: an int8 code per chunk (a
// quarter of the floats) in one file, vectors.i8, that is memory-mapped
// rather than read onto the heap. Badger records which row of that file
// holds each chunk's code, next to the float vector, in the same batch; a
// row written but not recorded is free on reopen, and codes that do not
// match the records (the file lost, replaced or cut short) are computed
// again from the floats when the index opens.
//
// The two stores never disagree in a way a search can see. Every document
// moves through a small state machine kept in Badger: a new version is staged
// as pending (its chunks written under a fresh generation number), then
// indexed in Bleve, then marked committed in one Badger transaction. Search
// hits are checked against the committed generation, so a half-indexed
// version is never returned. Open reconciles after a crash: pending versions
// are finished, deletions are completed, and anything in Bleve that Badger
// does not list as committed is removed.
//
// Search runs in one of three modes: BM25 (always available), vector (a
// scan of every int8 code, whose best Candidates are re-ranked exactly with
// their float vectors read from Badger) and hybrid, which fuses both
// rankings with reciprocal rank fusion (k = 60). Without an embedder the index is BM25 only and says so in every
// result set.
//
// The package imports none of toolhub's other packages.
package retriever
