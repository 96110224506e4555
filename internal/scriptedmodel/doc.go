// Package scriptedmodel is an OpenAI-compatible chat server that replays a
// script of replies in the formats Orchestrator-8B's backends produce (vLLM
// with the hermes parser, raw text, llama-server's reasoning field), well
// formed and malformed. It records every request for assertions. Tests use
// New; cmd/scriptedmodel serves a script file.
package scriptedmodel
