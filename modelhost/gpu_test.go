package modelhost

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestParseNvidiaSMI(t *testing.T) {
	cases := []struct {
		name    string
		out     string
		want    []GPU
		wantErr string
	}{
		{"one card", "NVIDIA GeForce RTX 4090, 24564, 1021\n",
			[]GPU{{Name: "NVIDIA GeForce RTX 4090", MemoryTotalMiB: 24564, MemoryUsedMiB: 1021}}, ""},
		{"two cards and blank lines", "\nNVIDIA A100-SXM4-80GB, 81920, 0\r\nNVIDIA A100-SXM4-80GB, 81920, 40960\n\n",
			[]GPU{{"NVIDIA A100-SXM4-80GB", 81920, 0}, {"NVIDIA A100-SXM4-80GB", 81920, 40960}}, ""},
		{"comma in name", "Tesla T4, rev 2, 15360, 5\n", []GPU{{"Tesla T4, rev 2", 15360, 5}}, ""},
		{"unsupported value", "NVIDIA Jetson, [N/A], [Not Supported]\n", []GPU{{"NVIDIA Jetson", 0, 0}}, ""},
		{"empty output", "", nil, ""},
		{"too few fields", "NVIDIA T4, 15360\n", nil, "want name, memory.total, memory.used"},
		{"not a number", "NVIDIA T4, lots, 5\n", nil, "memory.total"},
		{"negative", "NVIDIA T4, 15360, -5\n", nil, "memory.used"},
		{"no name", " , 15360, 5\n", nil, "empty GPU name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseNvidiaSMI(tc.out)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one mentioning %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func FuzzParseNvidiaSMI(f *testing.F) {
	f.Add("NVIDIA GeForce RTX 4090, 24564, 1021\n")
	f.Add("a, b, c\n, , \n")
	f.Add("x,[N/A],3")
	f.Fuzz(func(t *testing.T, out string) {
		gpus, err := ParseNvidiaSMI(out)
		if err != nil {
			return
		}
		for _, g := range gpus {
			if g.Name == "" || g.MemoryTotalMiB < 0 || g.MemoryUsedMiB < 0 {
				t.Fatalf("accepted a bad GPU %+v from %q", g, out)
			}
		}
	})
}

func TestDetectGPUsWithoutNvidiaSMI(t *testing.T) {
	if _, err := exec.LookPath("nvidia-smi"); err == nil {
		t.Skip("nvidia-smi is installed here; this case covers machines without it")
	}
	rep := DetectGPUs(context.Background())
	if len(rep.GPUs) != 0 || !strings.Contains(rep.Note, "no NVIDIA GPU found") {
		t.Fatalf("report %+v", rep)
	}
}

func TestDetectGPUsReadsAFakeNvidiaSMI(t *testing.T) {
	dir := t.TempDir()
	name, script := "nvidia-smi", "#!/bin/sh\necho 'NVIDIA L4, 23034, 512'\n"
	if runtime.GOOS == "windows" {
		name, script = "nvidia-smi.bat", "@echo NVIDIA L4, 23034, 512\r\n"
	}
	writeExecutable(t, filepath.Join(dir, name), script)
	t.Setenv("PATH", dir)
	rep := DetectGPUs(context.Background())
	want := []GPU{{Name: "NVIDIA L4", MemoryTotalMiB: 23034, MemoryUsedMiB: 512}}
	if !reflect.DeepEqual(rep.GPUs, want) || rep.Note != "" {
		t.Fatalf("report %+v", rep)
	}
}

func writeExecutable(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}
