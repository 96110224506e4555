package desktop

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// gpuTimeout bounds one nvidia-smi query.
const gpuTimeout = 2 * time.Second

// localGPU asks nvidia-smi for the first GPU's name and memory use; both are
// empty when there is no NVIDIA GPU or driver on this machine.
func localGPU(ctx context.Context) (name, memory string) {
	path, err := exec.LookPath("nvidia-smi")
	if err != nil {
		return "", ""
	}
	ctx, cancel := context.WithTimeout(ctx, gpuTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--query-gpu=name,memory.used,memory.total",
		"--format=csv,noheader").Output()
	if err != nil {
		return "", ""
	}
	return parseGPULine(string(out))
}

// parseGPULine reads "NVIDIA RTX 4090, 17012 MiB, 24564 MiB" (the first line).
func parseGPULine(out string) (name, memory string) {
	line, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	fields := strings.Split(line, ",")
	if len(fields) != 3 {
		return "", ""
	}
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	return fields[0], fields[1] + " of " + fields[2]
}
