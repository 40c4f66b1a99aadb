package zipfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"sync"
	"sync/atomic"

	"tensorscope/formats"
)

var (
	errPastSize = errors.New("zip: the member inflates past its declared size")
	errChecksum = errors.New("zip: checksum error")
)

// readAheadStep is how much of the compressed member readAhead maps in
// per call.
const readAheadStep = 8 << 20

// readAheadMin is the smallest compressed member readAhead maps in on
// another goroutine: for fewer pages, starting and waiting for it costs
// more than their faults (the statistics of an .npz of 100,000 small
// members spent most of their time handing goroutines between threads).
const readAheadMin = 1 << 20

// readAhead maps in the compressed member on another goroutine (another
// core), a step at a time, while the inflater reads it: a fresh mapping of
// a 250 MB member otherwise costs 60,000 page faults on the inflating
// goroutine. The returned function stops it and waits, so that nothing
// touches the mapping after the inflation returns.
func (m *Inflater) readAhead() (stop func()) {
	if m.zip == nil || m.packed < readAheadMin {
		return func() {}
	}
	end := m.at + m.packed
	var stopped atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for off := m.at; off < end && !stopped.Load(); off += readAheadStep {
			m.zip.Populate(int(off), int(min(readAheadStep, end-off)))
		}
	}()
	return func() {
		stopped.Store(true)
		wg.Wait()
	}
}

// open starts inflating the member from the mapped zip, with the checks
// archive/zip's reader makes: no more than the declared size, and at the
// end the CRC-32 (and the data descriptor's, when there is one). Bytes
// past the end of the file read as the end of the stream. The decompressor
// is klauspost/compress's, which inflates these float arrays 1.8× faster
// than compress/flate (docs/PERFORMANCE.md), over a bytes.Reader of the
// mapping (23% faster again than archive/zip's section reader).
func (m *Inflater) open() (io.ReadCloser, error) {
	if m.zip == nil {
		return nil, fmt.Errorf("zip: the archive's bytes are gone")
	}
	data := m.zip.Bytes()
	start := min(max(m.at, 0), int64(len(data)))
	end := min(start+m.packed, int64(len(data)))
	if m.packed < 0 || start+m.packed < start {
		end = start
	}
	return &checkedInflate{m: m, rc: newFlateReader(bytes.NewReader(data[start:end])), hash: crc32.NewIEEE(),
		descriptorAt: m.at + m.packed}, nil
}

// checkedInflate is archive/zip's checksum reader over an inflater.
type checkedInflate struct {
	m            *Inflater
	rc           io.ReadCloser
	hash         hash.Hash32
	read         int64
	descriptorAt int64
	err          error
}

func (r *checkedInflate) Read(b []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.rc.Read(b)
	r.hash.Write(b[:n])
	r.read += int64(n)
	if r.read > r.m.size {
		return 0, errPastSize
	}
	if err == io.EOF {
		switch {
		case r.read != r.m.size:
			err = io.ErrUnexpectedEOF
		case r.m.descriptor:
			if derr := r.checkDescriptor(); derr != nil {
				err = derr
			} else if r.hash.Sum32() != r.m.crc {
				err = errChecksum
			}
		case r.m.crc != 0 && r.hash.Sum32() != r.m.crc:
			err = errChecksum
		}
	}
	if err != nil {
		r.err = err
	}
	return n, err
}

// checkDescriptor reads the data descriptor after the compressed bytes
// (with or without its signature) and compares its CRC-32 with the
// central directory's.
func (r *checkedInflate) checkDescriptor() error {
	data := r.m.zip.Bytes()
	at := r.descriptorAt
	if at < 0 || at > int64(len(data)) || int64(len(data))-at < 12 {
		return io.ErrUnexpectedEOF
	}
	d := data[at:]
	if binary.LittleEndian.Uint32(d) == 0x08074b50 {
		if len(d) < 16 {
			return io.ErrUnexpectedEOF
		}
		d = d[4:]
	}
	if binary.LittleEndian.Uint32(d) != r.m.crc {
		return errChecksum
	}
	return nil
}

func (r *checkedInflate) Close() error { return r.rc.Close() }

// StreamError says what went wrong after done bytes of the member's
// inflated stream, at the member's compressed bytes.
func (m *Inflater) StreamError(err error, done int64) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return formats.Errorf(m.at, "deflate stream ends after %d of the %d bytes the member declares", done, m.size)
	}
	if errors.Is(err, errPastSize) {
		return formats.Errorf(m.at, "deflate stream inflates past the %d bytes the member declares", m.size)
	}
	return formats.Errorf(m.at, "deflate stream: %v after %d of %d bytes", err, done, m.size)
}
