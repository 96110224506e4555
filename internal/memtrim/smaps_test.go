package memtrim

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestParseSmaps(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "smaps"))
	if err != nil {
		t.Fatal(err)
	}
	got := parseSmaps(data)
	want := []mapping{
		{0x400000, 0x1073000, "r-xp", "/opt/tool hub/toolhub", 1556, 0},
		{0x1073000, 0x1ddb000, "r--p", "/opt/tool hub/toolhub", 2732, 0},
		{0x1ddb000, 0x1e00000, "r--p", "/opt/tool hub/toolhub", 148, 24},
		{0x1e00000, 0x1ee8000, "rw-p", "/opt/tool hub/toolhub", 416, 280},
		{0x1ee8000, 0x1ef0000, "r--p", "/opt/tool hub/toolhub", 0, 0},
		{0x1ef0000, 0x3f39000, "rw-p", "", 136, 136},
		{0x7fd22d44b000, 0x7fd22d5a1000, "r-xp", "/usr/lib/x86_64-linux-gnu/libc.so.6", 1092, 0},
		{0x7fd22e000000, 0x7fd22e010000, "r-xp", "/opt/tool hub/toolhub (deleted)", 64, 0},
		{0x7ffd1a3f0000, 0x7ffd1a3f2000, "r-xp", "[vdso]", 4, 0},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("parseSmaps:\n got %+v\nwant %+v", got, want)
	}
}

func TestReleasable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "smaps"))
	if err != nil {
		t.Fatal(err)
	}
	ms := parseSmaps(data)
	for _, tc := range []struct {
		name, exe string
		want      []uint64 // start addresses
	}{
		{"code and read-only data, never what the process wrote", "/opt/tool hub/toolhub", []uint64{0x400000, 0x1073000}},
		{"a replaced executable by the name the kernel gives it", "/opt/tool hub/toolhub (deleted)", []uint64{0x7fd22e000000}},
		{"nothing of another file", "/usr/bin/other", nil},
		{"no anonymous memory for an empty name", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []uint64
			for _, m := range releasable(ms, tc.exe) {
				got = append(got, m.start)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("releasable(%q) = %#x, want %#x", tc.exe, got, tc.want)
			}
		})
	}
}

func TestKilobytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"   1556 kB", 1556},
		{"0 kB", 0},
		{"12", 0},
		{"-4 kB", 0},
		{"x kB", 0},
		{"3 MB", 0},
	} {
		if got := kilobytes(tc.in); got != tc.want {
			t.Errorf("kilobytes(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// FuzzParseSmaps feeds the parser arbitrary text: it never panics, and what
// it returns is well formed and never releasable when it is writable or
// holds written pages.
func FuzzParseSmaps(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "smaps")); err == nil {
		f.Add(data, "/opt/tool hub/toolhub")
	}
	f.Add([]byte("0-1 rw\n"), "")
	f.Add([]byte("ffff-1 r-xp 0 0:0 0 /x\nRss: 4 kB\n"), "/x")
	f.Fuzz(func(t *testing.T, data []byte, exe string) {
		ms := parseSmaps(data)
		for _, m := range ms {
			if m.end <= m.start || len(m.perms) != 4 || m.rssKB < 0 || m.anonKB < 0 {
				t.Fatalf("ill-formed mapping %+v", m)
			}
		}
		for _, m := range releasable(ms, exe) {
			if m.perms[1] == 'w' || m.anonKB != 0 || m.path != exe {
				t.Fatalf("releasable picked %+v for %q", m, exe)
			}
		}
	})
}
