package zipfile

import (
	"errors"
	"io"
	"sync"

	kflate "github.com/klauspost/compress/flate"
)

// flateReaders holds decompressors to reuse: each has a 32 KiB window and
// Huffman tables (about 40 KB) to allocate and clear, which for an archive
// of 100,000 small members, each opened to read its header, was 4 GB of
// allocation and most of the time of opening it.
var flateReaders sync.Pool

// newFlateReader is kflate.NewReader(r) from the pool; Close returns it.
func newFlateReader(r io.Reader) io.ReadCloser {
	return &pooledFlate{getFlateReader(r)}
}

// getFlateReader is a decompressor of r from the pool, or a new one; put
// it back into flateReaders when done.
func getFlateReader(r io.Reader) io.ReadCloser {
	if fr, ok := flateReaders.Get().(io.ReadCloser); ok {
		if fr.(kflate.Resetter).Reset(r, nil) == nil {
			return fr
		}
	}
	return kflate.NewReader(r)
}

type pooledFlate struct{ io.ReadCloser }

func (p *pooledFlate) Close() error {
	if p.ReadCloser == nil {
		return nil
	}
	err := p.ReadCloser.Close()
	flateReaders.Put(p.ReadCloser)
	p.ReadCloser = nil
	return err
}

func (p *pooledFlate) Read(b []byte) (int, error) {
	if p.ReadCloser == nil {
		return 0, errors.New("read after Close")
	}
	return p.ReadCloser.Read(b)
}
