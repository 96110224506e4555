package retriever

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/blevesearch/mmap-go"
)

// codeFile is the slab of int8 vector codes on disk: a header, then one
// row of dims bytes per chunk. It is memory-mapped read-only, so the scan
// reads it through the page cache instead of the Go heap, and rows are
// written with WriteAt. Which row belongs to which chunk is recorded in
// Badger (q/ keys); the header's random identity ties those keys to this
// file, so a file replaced or lost is noticed and rebuilt from the float
// vectors.
type codeFile struct {
	f    *os.File
	dims int
	id   [16]byte
	rows int       // rows the file has room for
	m    mmap.MMap // header and rows; nil while the file holds no row
}

const codeHeaderBytes = 64

var codeMagic = [8]byte{'t', 'h', 'v', 'q', 'i', '8', 0, 1}

// openCodeFile opens or creates the slab at path. A file with another
// dimension or no valid header is emptied and given a fresh identity.
func openCodeFile(path string, dims int) (*codeFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open vector codes: %w", err)
	}
	c := &codeFile{f: f, dims: dims}
	if err := c.readHeader(); err != nil {
		if err := c.reset(); err != nil {
			_ = f.Close()
			return nil, err
		}
		return c, nil
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("open vector codes: %w", err)
	}
	c.rows = int((st.Size() - codeHeaderBytes) / int64(dims))
	if err := c.remap(); err != nil {
		_ = f.Close()
		return nil, err
	}
	return c, nil
}

// readHeader checks the magic and the dimension and reads the identity.
func (c *codeFile) readHeader() error {
	var h [codeHeaderBytes]byte
	if _, err := io.ReadFull(io.NewSectionReader(c.f, 0, codeHeaderBytes), h[:]); err != nil {
		return fmt.Errorf("vector codes header: %w", err)
	}
	if !bytes.Equal(h[:8], codeMagic[:]) || int(binary.LittleEndian.Uint32(h[8:12])) != c.dims {
		return fmt.Errorf("vector codes header: not a %d-dimensional code file", c.dims)
	}
	copy(c.id[:], h[16:32])
	return nil
}

// reset empties the file and gives it a fresh identity.
func (c *codeFile) reset() error {
	if err := c.unmap(); err != nil {
		return err
	}
	if _, err := rand.Read(c.id[:]); err != nil {
		return fmt.Errorf("vector codes identity: %w", err)
	}
	var h [codeHeaderBytes]byte
	copy(h[:8], codeMagic[:])
	binary.LittleEndian.PutUint32(h[8:12], uint32(c.dims))
	copy(h[16:32], c.id[:])
	if err := c.f.Truncate(0); err != nil {
		return fmt.Errorf("reset vector codes: %w", err)
	}
	if _, err := c.f.WriteAt(h[:], 0); err != nil {
		return fmt.Errorf("reset vector codes: %w", err)
	}
	c.rows = 0
	return c.f.Sync()
}

// grow makes room for at least n rows, with slack so that growing one
// batch at a time does not remap on every batch. The mapping is dropped
// first: Windows cannot resize a mapped file.
func (c *codeFile) grow(n int) error {
	if n <= c.rows {
		return nil
	}
	n = max(n, c.rows+c.rows/4, c.rows+1024)
	if err := c.unmap(); err != nil {
		return err
	}
	if err := c.f.Truncate(codeHeaderBytes + int64(n)*int64(c.dims)); err != nil {
		return fmt.Errorf("grow vector codes: %w", err)
	}
	c.rows = n
	return c.remap()
}

func (c *codeFile) remap() error {
	if c.rows == 0 {
		return nil
	}
	m, err := mmap.MapRegion(c.f, codeHeaderBytes+c.rows*c.dims, mmap.RDONLY, 0, 0)
	if err != nil {
		return fmt.Errorf("map vector codes: %w", err)
	}
	c.m = m
	return nil
}

func (c *codeFile) unmap() error {
	if c.m == nil {
		return nil
	}
	if err := c.m.Unmap(); err != nil {
		return fmt.Errorf("unmap vector codes: %w", err)
	}
	c.m = nil
	return nil
}

// row is the code stored in row r, read through the mapping.
func (c *codeFile) row(r int) []byte {
	off := codeHeaderBytes + r*c.dims
	return c.m[off : off+c.dims : off+c.dims]
}

// write stores a code in row r, which must be below c.rows.
func (c *codeFile) write(r int, code []byte) error {
	if _, err := c.f.WriteAt(code, codeHeaderBytes+int64(r)*int64(c.dims)); err != nil {
		return fmt.Errorf("write vector code: %w", err)
	}
	return nil
}

func (c *codeFile) sync() error {
	if err := c.f.Sync(); err != nil {
		return fmt.Errorf("sync vector codes: %w", err)
	}
	return nil
}

func (c *codeFile) close() error {
	err := c.unmap()
	if cerr := c.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close vector codes: %w", cerr)
	}
	return err
}
