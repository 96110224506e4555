//go:build ignore

// Command go stands in for the go command inside Wine, where Go is not
// installed, for the one thing the tests ask of it: "go build [flags] -o
// OUT PKG" of a helper program. It copies the program of PKG's last path
// element, built beforehand for Windows, from $TOOLHUB_WINE_PROGRAMS.
// scripts/test-windows.sh builds it as C:\windows\go.exe.
package main

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

func main() {
	out, pkg, err := parse(os.Args[1:])
	if err == nil {
		err = copyProgram(pkg, out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "go (stand-in):", err)
		os.Exit(1)
	}
}

func parse(args []string) (out, pkg string, err error) {
	if len(args) == 0 || args[0] != "build" {
		return "", "", fmt.Errorf("only go build is answered here, not %q", args)
	}
	for i := 1; i < len(args); i++ {
		switch {
		case args[i] == "-o" && i+1 < len(args):
			out = args[i+1]
			i++
		case strings.HasPrefix(args[i], "-"):
		default:
			pkg = args[i]
		}
	}
	if out == "" || pkg == "" {
		return "", "", fmt.Errorf("want go build -o OUT PKG, got %q", args)
	}
	return out, pkg, nil
}

func copyProgram(pkg, out string) error {
	name := path.Base(filepath.ToSlash(pkg))
	if pkg == "." {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		name = filepath.Base(wd)
	}
	src, err := os.Open(filepath.Join(os.Getenv("TOOLHUB_WINE_PROGRAMS"), name+".exe"))
	if err != nil {
		return fmt.Errorf("no program built for %s: %w", pkg, err)
	}
	defer src.Close()
	dst, err := os.Create(out)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
