// Command ingestchild ingests one folder into an index and prints a line
// per document indexed (and per batch of vectors stored). The crash tests
// run it as a real child process and kill it with SIGKILL part-way
// through.
//
// Usage: ingestchild INDEX_DIR FOLDER [DIMS]
//
// With DIMS it embeds the chunks with a word-hash embedder of that
// dimension, named "wordhash".
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/toolhub/toolhub/retriever"
)

func main() {
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: ingestchild INDEX_DIR FOLDER [DIMS]")
		os.Exit(2)
	}
	opts := retriever.Options{ChunkBytes: 256}
	if len(os.Args) == 4 {
		dims, err := strconv.Atoi(os.Args[3])
		if err != nil || dims <= 0 {
			fmt.Fprintln(os.Stderr, "DIMS: want a positive number")
			os.Exit(2)
		}
		opts.Embedder = wordHash{dims: dims}
	}
	ix, err := retriever.Open(os.Args[1], opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	progress := func(ev retriever.Event) {
		switch ev.Kind {
		case retriever.EventIndexed:
			fmt.Printf("indexed %d\n", ev.Done)
		case retriever.EventEmbedded:
			fmt.Printf("embedded %d\n", ev.Done)
		}
	}
	_, err = ix.IngestPaths(context.Background(), []string{os.Args[2]}, retriever.IngestOptions{Workers: 2, Progress: progress})
	if cerr := ix.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("done")
}
