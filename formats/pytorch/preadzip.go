package pytorch

import (
	"bytes"
	"io"
	"os"
	"sync/atomic"

	"tensorscope/formats"
)

// zipReaderAt is what the archive's local headers are read through. While
// the checkpoint is opened it reads them with pread from the file: a
// checkpoint of 2,000 tensors has 2,000 local headers, one on each of
// 2,000 pages of the mapping, and faulting those pages in cost more than
// the rest of the open (a page fault is far dearer than a 30-byte read on
// a virtual machine). Once the open is done (release), it reads the mapped
// bytes, as everything else does.
type zipReaderAt struct {
	mapped *bytes.Reader
	file   atomic.Pointer[os.File]
}

// newZipReaderAt opens src's file for reading when it is a local file of
// the mapped size; otherwise (in-memory sources, a file replaced since it
// was mapped) every read comes from the mapping.
func newZipReaderAt(src *formats.Source) *zipReaderAt {
	z := &zipReaderAt{mapped: bytes.NewReader(src.Data)}
	if f := src.OpenFile(); f != nil {
		z.file.Store(f)
	}
	return z
}

func (z *zipReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if f := z.file.Load(); f != nil {
		if n, err := f.ReadAt(p, off); err == nil || err == io.EOF {
			return n, err
		}
	}
	return z.mapped.ReadAt(p, off)
}

// release closes the file: later reads come from the mapping.
func (z *zipReaderAt) release() {
	if f := z.file.Swap(nil); f != nil {
		f.Close()
	}
}
