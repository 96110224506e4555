package secrets

import (
	"fmt"
	"testing"
)

// BenchmarkFileSet measures one change of the fallback file with 50
// secrets in it: lock, re-read, atomic replace with fsync.
func BenchmarkFileSet(b *testing.B) {
	s := benchStore(b)
	for i := 0; b.Loop(); i++ {
		if err := s.Set(fmt.Sprintf("bench.%02d", i%50), "value"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileGet measures one lookup, as the daemon makes per
// ${keychain:NAME} when it builds the server specs.
func BenchmarkFileGet(b *testing.B) {
	s := benchStore(b)
	for b.Loop() {
		if _, err := s.Get("bench.25"); err != nil {
			b.Fatal(err)
		}
	}
}

func benchStore(b *testing.B) *Store {
	b.Helper()
	s, err := Open(Options{Dir: b.TempDir(), Backend: BackendFile})
	if err != nil {
		b.Fatal(err)
	}
	for i := range 50 {
		if err := s.Set(fmt.Sprintf("bench.%02d", i), "ghp_0123456789abcdefghij0123456789abcd"); err != nil {
			b.Fatal(err)
		}
	}
	return s
}
