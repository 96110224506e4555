// Package modelhost launches and supervises the orchestrator's model server
// (vLLM, llama-server, Ollama): it starts the server in its own process
// tree, waits for its health endpoint while the weights load, restarts it
// with backoff after a crash and stops the whole tree on Stop. It also
// reports the machine's GPUs (nvidia-smi), so the CLI and the desktop can
// say whether a model fits.
package modelhost
