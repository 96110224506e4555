// Command gendocs writes toolhub's man pages (gzipped, one per command) and
// its bash, zsh and fish completions, for the release archives and the
// .deb and .rpm packages:
//
//	go run ./cmd/internal/gendocs -out build/docs
//
// It writes OUT/man/*.1.gz and OUT/completions/{toolhub.bash,_toolhub,toolhub.fish}.
// SOURCE_DATE_EPOCH, when set, dates the man pages (reproducible builds).
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/toolhub/toolhub/cmd/internal/cli"
)

func main() {
	out := flag.String("out", filepath.Join("build", "docs"), "directory to write man/ and completions/ into")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs: "+err.Error())
		os.Exit(1)
	}
}

func run(out string) error {
	root := cli.Command()
	root.DisableAutoGenTag = true
	if err := writeMan(root, filepath.Join(out, "man")); err != nil {
		return err
	}
	return writeCompletions(root, filepath.Join(out, "completions"))
}

// writeMan renders one page per command and gzips each, as Debian wants.
func writeMan(root *cobra.Command, dir string) error {
	tmp, err := os.MkdirTemp("", "toolhub-man-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	header := &doc.GenManHeader{Title: "TOOLHUB", Section: "1", Source: "toolhub", Manual: "toolhub manual"}
	if err := doc.GenManTree(root, header, tmp); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	pages, err := filepath.Glob(filepath.Join(tmp, "*.1"))
	if err != nil {
		return err
	}
	for _, page := range pages {
		if err := gzipFile(page, filepath.Join(dir, filepath.Base(page)+".gz")); err != nil {
			return err
		}
	}
	return nil
}

func gzipFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(dst, b.Bytes(), 0o644)
}

func writeCompletions(root *cobra.Command, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	steps := []struct {
		name string
		gen  func(string) error
	}{
		{"toolhub.bash", func(p string) error { return root.GenBashCompletionFileV2(p, true) }},
		{"_toolhub", root.GenZshCompletionFile},
		{"toolhub.fish", func(p string) error { return root.GenFishCompletionFile(p, true) }},
	}
	for _, s := range steps {
		if err := s.gen(filepath.Join(dir, s.name)); err != nil {
			return fmt.Errorf("completion %s: %w", s.name, err)
		}
	}
	return nil
}
