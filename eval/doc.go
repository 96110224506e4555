// Package eval measures policies: accuracy, cost, latency and tool use side
// by side, in the shape of the ToolOrchestra paper's tables.
//
// Two environments feed one report model:
//
//   - live: tasks ({id, question, answer, [domain]} JSONL) run as real
//     episodes through a Runner, graded by normalised exact match, numeric
//     tolerance or an LLM judge, stored in the run log, and journaled
//     (append-only JSONL, fsync per line) so an interrupted eval resumes;
//   - replay: every task carries the recorded score of every candidate
//     model and, in format v2, its cost, latency and tokens
//     (docs/replay-format.md; the llmrouter-nim9 routing set is v1), so a
//     policy's model choice is answered from the record with no LLM call.
//     Learned routers (knn, lr, blend, mf) are swept over cost weights, their
//     AIQ, APGR and CPT(50%) measured on a fixed grid and their operating
//     point chosen on the train split, routed out of fold, as the most
//     accurate weight within half the strongest model's cost.
//
// Reports render as a terminal table, JSON, or a self-contained HTML page
// with an accuracy-versus-cost chart drawn as inline SVG.
package eval
