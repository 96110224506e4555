// Command ingestchild ingests one folder into an index and prints a line
// per document indexed. The crash tests run it as a real child process
// and kill it with SIGKILL part-way through.
//
// Usage: ingestchild INDEX_DIR FOLDER
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/toolhub/toolhub/retriever"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: ingestchild INDEX_DIR FOLDER")
		os.Exit(2)
	}
	ix, err := retriever.Open(os.Args[1], retriever.Options{ChunkBytes: 256})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	progress := func(ev retriever.Event) {
		if ev.Kind == retriever.EventIndexed {
			fmt.Printf("indexed %d\n", ev.Done)
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
