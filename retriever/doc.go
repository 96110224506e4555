// Package retriever is toolhub's private document index: files and folders
// are read, turned into text, cut into chunks and indexed on the local disk.
//
// Badger is the source of truth. It holds one record per document, the
// chunks (text, byte offsets, heading path), content hashes and, when an
// embedding endpoint is configured, one float32 vector per chunk. Bleve holds
// the full-text index with the BM25 scoring model.
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
// Search runs in one of three modes: BM25 (always available), vector (an
// exact float32 scan, with a 1-bit sign-code prefilter past ExactScanLimit
// chunks) and hybrid, which fuses both rankings with reciprocal rank fusion
// (k = 60). Without an embedder the index is BM25 only and says so in every
// result set.
//
// The package imports none of toolhub's other packages.
package retriever
