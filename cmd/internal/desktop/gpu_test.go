package desktop

import (
	"strings"
	"testing"
)

func TestParseGPULine(t *testing.T) {
	tests := []struct {
		name, out, wantName, wantMemory string
	}{
		{"one GPU", "NVIDIA GeForce RTX 4090, 17012 MiB, 24564 MiB\n", "NVIDIA GeForce RTX 4090", "17012 MiB of 24564 MiB"},
		{"first of two", "A100, 1 MiB, 80000 MiB\nA100, 2 MiB, 80000 MiB\n", "A100", "1 MiB of 80000 MiB"},
		{"no GPU message", "No devices were found\n", "", ""},
		{"empty", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name, mem := parseGPULine(tc.out)
			if name != tc.wantName || mem != tc.wantMemory {
				t.Fatalf("parseGPULine(%q) = %q, %q; want %q, %q", tc.out, name, mem, tc.wantName, tc.wantMemory)
			}
		})
	}
}

func FuzzParseGPULine(f *testing.F) {
	f.Add("NVIDIA GeForce RTX 4090, 17012 MiB, 24564 MiB\n")
	f.Add(",,\n")
	f.Fuzz(func(t *testing.T, out string) {
		name, mem := parseGPULine(out)
		if strings.ContainsAny(name, ",\n") || strings.Contains(mem, "\n") || (name != "" && mem == "") {
			t.Fatalf("parseGPULine(%q) = %q, %q", out, name, mem)
		}
	})
}
