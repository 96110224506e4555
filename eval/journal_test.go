package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalJournalCutsATornLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	whole := `{"task_id":"t1","policy":"p","repeat":0,"status":"answered","grade":{"score":1,"method":"exact"},"m":{"tools":null,"outcome":1,"cost":0,"latency":0},"time":"2026-01-01T00:00:00Z"}` + "\n"
	if err := os.WriteFile(path, []byte(whole+`{"task_id":"t2","pol`), 0o600); err != nil {
		t.Fatal(err)
	}
	j, done, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || done[0].TaskID != "t1" {
		t.Fatalf("entries %+v", done)
	}
	if err := j.Append(JournalEntry{TaskID: "t2", Policy: "p"}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	all, err := readJournal(path)
	if err != nil || len(all) != 2 || all[1].TaskID != "t2" {
		t.Fatalf("after append: %+v, %v", all, err)
	}
}

// readJournal returns the entries of the journal at path, closing it
// again (Windows deletes no open file, so a test's folder could not go).
func readJournal(path string) ([]JournalEntry, error) {
	j, entries, err := OpenJournal(path)
	if err != nil {
		return nil, err
	}
	return entries, j.Close()
}

func TestEvalJournalRejectsACorruptMiddleLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	if err := os.WriteFile(path, []byte("{oops\n{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenJournal(path); err == nil || !strings.Contains(err.Error(), path+":1:") {
		t.Fatalf("error %v, want %s:1", err, path)
	}
}
