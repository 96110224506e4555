package beir

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Doc is one corpus entry.
type Doc struct {
	ID    string `json:"_id"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Qrels maps query ID → document ID → graded relevance.
type Qrels map[string]map[string]int

// LoadCorpus reads dir/corpus.jsonl.gz (or dir/corpus.jsonl) as a stream.
func LoadCorpus(dir string) ([]Doc, error) {
	r, closeFn, err := openCorpus(dir)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	var docs []Doc
	err = eachJSONLine(r, func(line []byte) error {
		var d Doc
		if err := json.Unmarshal(line, &d); err != nil {
			return err
		}
		if d.ID == "" {
			return errors.New("entry without _id")
		}
		docs = append(docs, d)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("corpus in %s: %w", dir, err)
	}
	return docs, nil
}

func openCorpus(dir string) (io.Reader, func(), error) {
	f, err := os.Open(filepath.Join(dir, "corpus.jsonl.gz"))
	if errors.Is(err, os.ErrNotExist) {
		plain, err := os.Open(filepath.Join(dir, "corpus.jsonl"))
		if err != nil {
			return nil, nil, fmt.Errorf("open corpus: %w", err)
		}
		return plain, func() { _ = plain.Close() }, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("open corpus: %w", err)
	}
	gz, err := gzip.NewReader(f)
	if err != nil {
		_ = f.Close()
		return nil, nil, fmt.Errorf("open corpus: %w", err)
	}
	return gz, func() { _ = gz.Close(); _ = f.Close() }, nil
}

// LoadQueries reads dir/queries.jsonl into a map of query ID → text.
func LoadQueries(dir string) (map[string]string, error) {
	f, err := os.Open(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("open queries: %w", err)
	}
	defer func() { _ = f.Close() }()
	queries := map[string]string{}
	err = eachJSONLine(f, func(line []byte) error {
		var q struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(line, &q); err != nil {
			return err
		}
		queries[q.ID] = q.Text
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("queries in %s: %w", dir, err)
	}
	return queries, nil
}

// eachJSONLine calls fn with every non-empty line; lines split on '\n'
// only, so Unicode line separators inside strings are kept.
func eachJSONLine(r io.Reader, fn func([]byte) error) error {
	br := bufio.NewReaderSize(r, 1<<20)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if trimmed := strings.TrimSpace(string(line)); trimmed != "" {
			if ferr := fn([]byte(trimmed)); ferr != nil {
				return fmt.Errorf("line %d: %w", n, ferr)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
}

// LoadQrels reads dir/qrels/<split>.tsv: a header line, then
// query-id, corpus-id and score separated by tabs (CRLF tolerated).
func LoadQrels(dir, split string) (Qrels, error) {
	path := filepath.Join(dir, "qrels", split+".tsv")
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open qrels: %w", err)
	}
	defer func() { _ = f.Close() }()
	return parseQrels(f)
}

func parseQrels(r io.Reader) (Qrels, error) {
	qrels := Qrels{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if n == 1 && strings.HasPrefix(line, "query-id") || strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			return nil, fmt.Errorf("qrels line %d: want 3 tab-separated fields, got %d", n, len(fields))
		}
		score, err := strconv.Atoi(strings.TrimSpace(fields[2]))
		if err != nil {
			return nil, fmt.Errorf("qrels line %d: score: %w", n, err)
		}
		q := qrels[fields[0]]
		if q == nil {
			q = map[string]int{}
			qrels[fields[0]] = q
		}
		q[fields[1]] = score
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("qrels: %w", err)
	}
	return qrels, nil
}

// SharedDataset finds ../shared/data/beir/<name> beside the module root
// (the folder with go.mod), searching up from the working directory.
func SharedDataset(name string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "data", "beir", name), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
