package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolhub/toolhub/eval"
)

// checkOutputs makes sure the files an eval writes can be written before
// it runs: a replay takes minutes, and a live eval spends money, so a
// mistyped --html or --journal must not be found out only at the end.
func (f *evalFlags) checkOutputs() error {
	outputs := []struct{ flag, path string }{{"--html", f.htmlPath}}
	if f.tasks != "" {
		outputs = append(outputs, struct{ flag, path string }{"--journal", f.journal})
	}
	for _, o := range outputs {
		if o.path == "" {
			continue
		}
		if err := checkWritable(o.path); err != nil {
			return usageError("%s %s: %v", o.flag, o.path, err)
		}
	}
	return nil
}

// checkWritable reports why path cannot be written, if it cannot: an
// existing file is opened for writing (and left as it was), and where none
// exists a file is created in its directory and removed again.
func checkWritable(path string) error {
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return errors.New("is a directory")
	case err == nil:
		file, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("cannot write it: %w", pathReason(err))
		}
		return file.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("no directory %s to write it in", dir)
	}
	probe, err := os.CreateTemp(dir, "."+filepath.Base(path)+".check-*")
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %w", dir, pathReason(err))
	}
	if err := probe.Close(); err != nil {
		return err
	}
	return os.Remove(probe.Name())
}

// pathReason is a path error's cause without the path, which the message
// names already (a probe's temporary name would only confuse).
func pathReason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// output prints the report, as text or JSON, then writes the HTML page
// when asked. The printed report comes first so that a page that cannot
// be written after all still leaves the run's results on the terminal.
func (f *evalFlags) output(g *globals, rep *eval.Report) error {
	var err error
	if f.asJSON {
		err = writeJSON(g.stdio.Out, rep)
	} else {
		err = rep.WriteText(g.stdio.Out)
	}
	if err != nil || f.htmlPath == "" {
		return err
	}
	if err := writeHTMLReport(f.htmlPath, rep); err != nil {
		return fmt.Errorf("write html report (the report is printed above): %w", err)
	}
	return nil
}

func writeHTMLReport(path string, rep *eval.Report) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	err = rep.WriteHTML(out)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
