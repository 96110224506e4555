package config

// LaunchPreset is a ready-made way to run the orchestrator's model server,
// from the README's table: the command toolhub starts, where it answers
// and which model id it serves the orchestrator under.
type LaunchPreset struct {
	Name    string
	Command []string
	BaseURL string
	Health  string
	Model   string
	// Binary is the program that must be installed.
	Binary string
	// Needs says in a few words what the machine must have.
	Needs string
}

// LaunchPresets are the presets for Orchestrator-8B: llama.cpp (the
// smallest: about 7 GB of GPU memory at 8k context), vLLM and Ollama.
func LaunchPresets() []LaunchPreset {
	return []LaunchPreset{
		{Name: "llama.cpp", Binary: "llama-server",
			Command: []string{"llama-server", "-hf", "bartowski/nvidia_Orchestrator-8B-GGUF:Q4_K_M", "--jinja",
				"-c", "32768", "-ngl", "99", "--host", "127.0.0.1", "--port", "8080"},
			BaseURL: "http://127.0.0.1:8080/v1", Health: "http://127.0.0.1:8080/health",
			Model: DefaultOrchestratorModel, Needs: "a GPU with about 7–10.5 GB free (Q4_K_M, 8k–32k context)"},
		{Name: "vLLM", Binary: "vllm",
			Command: []string{"vllm", "serve", DefaultOrchestratorModel, "--enable-auto-tool-choice",
				"--tool-call-parser", "hermes", "--port", "8000", "--max-model-len", "32768", "--gpu-memory-utilization", "0.85"},
			BaseURL: DefaultOrchestratorURL, Health: "http://127.0.0.1:8000/health",
			Model: DefaultOrchestratorModel, Needs: "Linux, CUDA and about 18–22 GB of GPU memory (BF16)"},
		{Name: "Ollama", Binary: "ollama",
			Command: []string{"ollama", "serve"},
			BaseURL: "http://127.0.0.1:11434/v1", Health: "http://127.0.0.1:11434/",
			Model: "orchestrator-8b", Needs: "the model built once with `ollama create orchestrator-8b` (see the README)"},
	}
}
