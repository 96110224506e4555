package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/retriever/synthetic"
)

// benchIdleMemory is the child side of reopenInChild: it opens the index,
// waits until idle and prints its memory as JSON.
func (g *globals) benchIdleMemory(cmd *cobra.Command, f benchRetrievalFlags) error {
	m, err := synthetic.IdleMemory(cmd.Context(), f.idleMemory, f.dims)
	if err != nil {
		return err
	}
	return writeJSON(g.stdio.Out, m)
}

// reopenSynthetic measures the reopened synthetic index; tests, whose
// binary is not toolhub, set it to nil to measure in their own process.
var reopenSynthetic = reopenInChild

// reopenInChild measures a reopened synthetic index in a fresh toolhub
// process, so that nothing the ingest left on this process's heap counts.
func reopenInChild(ctx context.Context, dir string, dims int) (synthetic.Memory, error) {
	exe, err := os.Executable()
	if err != nil {
		return synthetic.Memory{}, fmt.Errorf("find toolhub: %w", err)
	}
	var out, stderr bytes.Buffer
	child := exec.CommandContext(ctx, exe, "bench", "retrieval", "--idle-memory", dir, "--dims", strconv.Itoa(dims))
	child.Stdout, child.Stderr = &out, &stderr
	if err := child.Run(); err != nil {
		return synthetic.Memory{}, fmt.Errorf("%s: %w: %s", exe, err, bytes.TrimSpace(stderr.Bytes()))
	}
	var m synthetic.Memory
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		return m, fmt.Errorf("read the memory of the reopened index: %w", err)
	}
	return m, nil
}
