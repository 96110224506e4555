package modelhost

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// GPU is one NVIDIA card as nvidia-smi reports it.
type GPU struct {
	Name           string `json:"name"`
	MemoryTotalMiB int    `json:"memoryTotalMiB"`
	MemoryUsedMiB  int    `json:"memoryUsedMiB"`
}

// GPUReport says which GPUs the machine has, or why none are listed.
type GPUReport struct {
	GPUs []GPU `json:"gpus"`
	// Note explains an empty list ("no NVIDIA GPU found ...") or a failed
	// query; empty when GPUs were listed.
	Note string `json:"note,omitempty"`
}

// nvidiaSMIArgs ask for one CSV line per GPU: name, total MiB, used MiB.
var nvidiaSMIArgs = []string{"--query-gpu=name,memory.total,memory.used", "--format=csv,noheader,nounits"}

// DetectGPUs runs nvidia-smi when it is on PATH. It never fails: problems
// become the report's note.
func DetectGPUs(ctx context.Context) GPUReport {
	path, err := exec.LookPath("nvidia-smi")
	if err != nil {
		return GPUReport{Note: "no NVIDIA GPU found (nvidia-smi is not on PATH)"}
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, nvidiaSMIArgs...).Output()
	if err != nil {
		return GPUReport{Note: "nvidia-smi failed: " + commandError(err)}
	}
	gpus, err := ParseNvidiaSMI(string(out))
	if err != nil {
		return GPUReport{Note: err.Error()}
	}
	if len(gpus) == 0 {
		return GPUReport{Note: "no NVIDIA GPU found (nvidia-smi listed none)"}
	}
	return GPUReport{GPUs: gpus}
}

func commandError(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return strings.TrimSpace(string(ee.Stderr))
	}
	return err.Error()
}

// ParseNvidiaSMI reads the output of nvidia-smi with nvidiaSMIArgs: lines of
// "name, total, used" in MiB. Blank lines are skipped; a GPU name may itself
// contain commas, so the numbers are taken from the end of the line.
func ParseNvidiaSMI(out string) ([]GPU, error) {
	var gpus []GPU
	for i, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		g, err := parseGPULine(line)
		if err != nil {
			return nil, fmt.Errorf("nvidia-smi output line %d %q: %w", i+1, line, err)
		}
		gpus = append(gpus, g)
	}
	return gpus, nil
}

func parseGPULine(line string) (GPU, error) {
	fields := strings.Split(line, ",")
	if len(fields) < 3 {
		return GPU{}, errors.New("want name, memory.total, memory.used")
	}
	n := len(fields)
	total, err := mebibytes(fields[n-2])
	if err != nil {
		return GPU{}, fmt.Errorf("memory.total: %w", err)
	}
	used, err := mebibytes(fields[n-1])
	if err != nil {
		return GPU{}, fmt.Errorf("memory.used: %w", err)
	}
	name := strings.TrimSpace(strings.Join(fields[:n-2], ","))
	if name == "" {
		return GPU{}, errors.New("empty GPU name")
	}
	return GPU{Name: name, MemoryTotalMiB: total, MemoryUsedMiB: used}, nil
}

// mebibytes parses a whole, non-negative MiB count; nvidia-smi prints
// "[N/A]" or "[Not Supported]" for unknown values, which count as 0.
func mebibytes(s string) (int, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		return 0, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("want a whole number of MiB, got %q", s)
	}
	return v, nil
}
