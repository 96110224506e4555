// Package synthetic measures the retriever at a chosen size with generated
// documents: ingest throughput, BM25 and vector query latency, resident
// memory and disk use.
package synthetic
