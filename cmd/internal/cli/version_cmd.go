package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/cmd/internal/buildinfo"
)

func newVersionCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the toolhub version, commit and build date",
		Long: `Print the toolhub version, the commit it was built from and when.

A release build carries all three. A "go install ...@version" build knows its
module version (and, for a pseudo-version, the commit and its time); a build
from a git checkout knows the commit and its time, and says "modified" when
the work tree had changes.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return writeVersion(g.stdio.Out, buildinfo.Get(), asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON object: version, commit, date, modified, goVersion, platform")
	return cmd
}

// addVersionFlag makes `toolhub --version` print what `toolhub version`
// prints.
func addVersionFlag(root *cobra.Command) {
	var line strings.Builder
	_ = writeVersion(&line, buildinfo.Get(), false)
	root.Version = line.String()
	root.SetVersionTemplate("{{.Version}}")
	root.Flags().Bool("version", false, "print the version, commit and build date (as toolhub version does)")
}

func writeVersion(w io.Writer, info buildinfo.Info, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(info)
	}
	details := []string{}
	if info.Commit != "" {
		c := "commit " + info.Commit
		if info.Modified {
			c += ", modified"
		}
		details = append(details, c)
	}
	if info.Date != "" {
		details = append(details, "built "+info.Date)
	}
	details = append(details, info.GoVersion, info.Platform)
	_, err := fmt.Fprintf(w, "toolhub %s (%s)\n", info.Version, strings.Join(details, ", "))
	return err
}
