// Package eval measures policies: accuracy, cost, latency and tool use side
// by side, in the shape of the ToolOrchestra paper's tables.
//
// Two environments feed one report model:
//
//   - live: tasks ({id, question, answer, [domain]} JSONL) run as real
//     episodes through a Runner, graded by normalised exact match, numeric
//     tolerance or an LLM judge, stored in the run log, and journaled
//     (append-only JSONL, fsync per line) so an interrupted eval resumes;
//   - replay: every task carries the recorded score and cost of every
//     candidate model (the llmrouter-nim9 routing set), so a policy's model
//     choice is answered from the record with no LLM call.
//
// Reports render as a terminal table, JSON, or a self-contained HTML page
// with an accuracy-versus-cost chart drawn as inline SVG.
package eval
