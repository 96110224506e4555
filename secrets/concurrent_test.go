package secrets

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync"
	"testing"
)

// childEnv makes the test binary a second process writing into a folder.
const (
	childEnv    = "TOOLHUB_SECRETS_TEST_CHILD_DIR"
	childPrefix = "TOOLHUB_SECRETS_TEST_CHILD_PREFIX"
	perWriter   = 25
)

// runChild writes perWriter secrets into the folder dir, as a second
// toolhub process would.
func runChild(dir string) int {
	s, err := Open(Options{Dir: dir, Backend: BackendFile})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := writeMany(s, os.Getenv(childPrefix)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func writeMany(s *Store, prefix string) error {
	for i := range perWriter {
		if err := s.Set(fmt.Sprintf("%s.%02d", prefix, i), fmt.Sprintf("value-%s-%d", prefix, i)); err != nil {
			return err
		}
	}
	return nil
}

// wantNames is every name the writers with these prefixes store.
func wantNames(prefixes ...string) []string {
	var names []string
	for _, p := range prefixes {
		for i := range perWriter {
			names = append(names, fmt.Sprintf("%s.%02d", p, i))
		}
	}
	slices.Sort(names)
	return names
}

// TestConcurrentWritersInOneProcess has stores opened separately on one
// folder write at once; every write must survive.
func TestConcurrentWritersInOneProcess(t *testing.T) {
	dir := t.TempDir()
	prefixes := []string{"a", "b", "c", "d"}
	var wg sync.WaitGroup
	errs := make(chan error, len(prefixes))
	for _, p := range prefixes {
		s, err := Open(Options{Dir: dir, Backend: BackendFile})
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { errs <- writeMany(s, p) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	checkAll(t, dir, wantNames(prefixes...))
}

// TestConcurrentProcesses runs two more processes writing into the same
// folder as this one, as toolhub serve and toolhub config set-secret do.
func TestConcurrentProcesses(t *testing.T) {
	dir := t.TempDir()
	var children []*exec.Cmd
	for _, p := range []string{"child1", "child2"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+dir, childPrefix+"="+p)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		children = append(children, cmd)
	}
	s, err := Open(Options{Dir: dir, Backend: BackendFile})
	if err != nil {
		t.Fatal(err)
	}
	if err := writeMany(s, "parent"); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range children {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child: %v", err)
		}
	}
	checkAll(t, dir, wantNames("child1", "child2", "parent"))
}

func checkAll(t *testing.T, dir string, want []string) {
	t.Helper()
	s, err := Open(Options{Dir: dir, Backend: BackendFile})
	if err != nil {
		t.Fatal(err)
	}
	names, err := s.Names()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, want) {
		t.Fatalf("after concurrent writes %d names survive; want %d", len(names), len(want))
	}
}
