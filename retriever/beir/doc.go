// Package beir loads BEIR-format retrieval benchmarks (corpus.jsonl.gz,
// queries.jsonl, qrels/<split>.tsv), scores rankings with nDCG@k and
// Recall@k as trec_eval does, and runs a benchmark end to end against a
// fresh retriever index.
package beir
