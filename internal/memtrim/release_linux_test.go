//go:build linux

package memtrim

import (
	"os"
	"testing"
)

// written is set at run time: it lives in a writable mapping of the
// executable, which Release must leave alone.
var written = map[string]int{}

// execResidentKB sums the resident pages of the mappings Release would drop.
func execResidentKB(t *testing.T) int64 {
	t.Helper()
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	var kb int64
	for _, m := range releasable(parseSmaps(data), exe) {
		kb += m.rssKB
	}
	return kb
}

// TestReleaseDropsTheExecutablesPages releases the test binary's own pages
// and reads them back from /proc/self/smaps: they are gone, the process
// runs on, and what it wrote is intact.
func TestReleaseDropsTheExecutablesPages(t *testing.T) {
	written["kept"] = 42
	before := execResidentKB(t)
	if before == 0 {
		t.Fatal("no resident page of the executable to release")
	}
	r, err := Release()
	if err != nil {
		t.Fatal(err)
	}
	after := execResidentKB(t)
	t.Logf("executable resident: %d KiB before, %d KiB released, %d KiB after", before, r.ExecKB, after)
	if !r.Counted || r.Mappings == 0 || r.ExecKB == 0 {
		t.Fatalf("Release = %+v, want the executable's mappings dropped", r)
	}
	// Without a release the count only grows (pages are mapped as they are
	// touched); reading smaps again maps some back at once, more so in a
	// race-instrumented build.
	if after >= before || r.ExecKB < before {
		t.Fatalf("%d KiB of the executable resident after Release (%d KiB released), from %d", after, r.ExecKB, before)
	}
	if written["kept"] != 42 {
		t.Fatalf("a value the process wrote is %d after Release, want 42", written["kept"])
	}
}
