package cli

import (
	"io"

	"github.com/spf13/cobra"
)

// Command is the toolhub command tree, for generating its man pages and
// shell completions; running it talks to nothing.
func Command() *cobra.Command {
	return newRootCommand(&globals{stdio: Stdio{In: eofReader{}, Out: io.Discard, Err: io.Discard}})
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
