package npy

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// maxDeflateRatio is the most bytes one byte of a deflate stream can expand
// to (a 258-byte match in 2 bits). A member declaring more is lying, and is
// refused before anything is allocated.
const maxDeflateRatio = 1032

// inMemoryLimit is the largest member inflated into memory; larger ones go
// to an unlinked temporary file that is mapped like the zip itself, and
// whose pages every pass releases once read, so that such a member never
// takes more than a few megabytes per core of resident memory.
var inMemoryLimit int64 = 512 << 20

// smallMember is the size below which a member inflates into the Go heap
// rather than a mapping of its own: a mapping takes at least a page and
// one of the process's 65,530 mappings, which an archive of 100,000 small
// arrays exhausted (and took 1.1 GB of pages for 16 MB of arrays).
const smallMember = 256 << 10

// inflateChunk is how much is inflated between checks of the context.
const inflateChunk = 1 << 20

// inflater decompresses one deflated member on first use and keeps the
// result for the document's lifetime.
type inflater struct {
	doc    *formats.Document
	zip    *tensor.Storage // the mapped zip
	at     int64           // offset of the compressed data in the zip
	packed int64           // compressed bytes
	size   int64           // declared inflated size
	crc    uint32          // the central directory's CRC-32
	// descriptor says a data descriptor follows the compressed bytes.
	descriptor bool

	mu  sync.Mutex
	st  *tensor.Storage
	err error
}

// init sets the inflater up for a member of the mapped zip whose
// compressed bytes start at at: declared sizes, CRC-32 and flags from its
// central directory record.
func (m *inflater) init(doc *formats.Document, zipData *tensor.Storage, at int64, size, packed uint64, crc uint32, flags uint16) error {
	if size > 1<<62 || (packed < (1<<62)/maxDeflateRatio && size > packed*maxDeflateRatio+1024) {
		return fmt.Errorf("declares %d bytes inflated from %d compressed, more than deflate can produce", size, packed)
	}
	m.doc, m.zip, m.at, m.packed, m.size = doc, zipData, at, int64(min(packed, 1<<62)), int64(size)
	m.crc, m.descriptor = crc, flags&0x8 != 0
	return nil
}

// readAheadStep is how much of the compressed member readAhead maps in
// per call.
const readAheadStep = 8 << 20

// readAhead maps in the compressed member on another goroutine (another
// core), a step at a time, while the inflater reads it: a fresh mapping of
// a 250 MB member otherwise costs 60,000 page faults on the inflating
// goroutine. The returned function stops it and waits, so that nothing
// touches the mapping after the inflation returns.
func (m *inflater) readAhead() (stop func()) {
	if m.zip == nil {
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
func (m *inflater) open() (io.ReadCloser, error) {
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
	m            *inflater
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
		return 0, zip.ErrFormat
	}
	if err == io.EOF {
		switch {
		case r.read != r.m.size:
			err = io.ErrUnexpectedEOF
		case r.m.descriptor:
			if derr := r.checkDescriptor(); derr != nil {
				err = derr
			} else if r.hash.Sum32() != r.m.crc {
				err = zip.ErrChecksum
			}
		case r.m.crc != 0 && r.hash.Sum32() != r.m.crc:
			err = zip.ErrChecksum
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
		return zip.ErrChecksum
	}
	return nil
}

func (r *checkedInflate) Close() error { return r.rc.Close() }

// headerScratch is what reading the members' headers reuses from one
// member to the next: the reader over the compressed bytes and the buffer
// the header inflates into.
type headerScratch struct {
	compressed bytes.Reader
	buf        []byte
}

// readHeader inflates only the .npy header at the member's start, into
// scratch's buffer (valid until the next call). A member that lies within
// the mapped zip is read straight from it through a pooled decompressor:
// archive/zip's reader would read the local header again and set up a CRC
// check that a partial read never reaches, a dozen allocations per member.
func (m *inflater) readHeader(scratch *headerScratch) ([]byte, error) {
	var rc io.Reader
	if data := m.zipBytes(); data != nil {
		scratch.compressed.Reset(data)
		fr := getFlateReader(&scratch.compressed)
		defer flateReaders.Put(fr)
		rc = fr
	} else {
		zr, err := m.open()
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		rc = zr
	}
	prefix := min(12, m.size)
	if int64(cap(scratch.buf)) < prefix {
		scratch.buf = make([]byte, 0, 256)
	}
	head := scratch.buf[:prefix]
	if _, err := io.ReadFull(rc, head); err != nil {
		return nil, m.streamErr(err, 0)
	}
	total, err := peekHeaderLen(head, 0)
	if err != nil {
		return head, nil // parseHeader reports the same problem with its place
	}
	if total > m.size {
		return nil, fmt.Errorf("header of %d bytes is longer than the member's declared %d bytes", total, m.size)
	}
	if int64(cap(head)) < total {
		head = append(make([]byte, 0, total), head...)
		scratch.buf = head
	}
	head = head[:total]
	if prefix < total {
		if _, err := io.ReadFull(rc, head[prefix:]); err != nil {
			return nil, m.streamErr(err, prefix)
		}
	}
	return head, nil
}

// zipBytes returns the member's compressed bytes within the mapped zip,
// or nil when it has none or they do not lie within it (archive/zip's
// reader then says what is wrong).
func (m *inflater) zipBytes() []byte {
	if m.zip == nil {
		return nil
	}
	data := m.zip.Bytes()
	if m.at < 0 || m.at > int64(len(data)) || m.packed < 0 || m.packed > int64(len(data))-m.at {
		return nil
	}
	return data[m.at : m.at+m.packed]
}

func (m *inflater) streamErr(err error, done int64) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return formats.Errorf(m.at, "deflate stream ends after %d of the %d bytes the member declares", done, m.size)
	}
	if errors.Is(err, zip.ErrFormat) {
		return formats.Errorf(m.at, "deflate stream inflates past the %d bytes the member declares", m.size)
	}
	return formats.Errorf(m.at, "deflate stream: %v after %d of %d bytes", err, done, m.size)
}

// inflate returns the member's inflated bytes as storage, inflating them on
// first call. A cancelled inflation is not remembered, so it can be retried.
func (m *inflater) inflate(ctx context.Context) (*tensor.Storage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.st != nil || m.err != nil {
		return m.st, m.err
	}
	var st *tensor.Storage
	var err error
	if m.size > inMemoryLimit {
		st, err = m.inflateToFile(ctx)
	} else {
		st, err = m.inflateToMemory(ctx)
	}
	if err != nil {
		if ctx.Err() == nil {
			m.err = err
		}
		return nil, err
	}
	m.st = st
	return st, nil
}

func (m *inflater) inflateToMemory(ctx context.Context) (*tensor.Storage, error) {
	if m.size < smallMember {
		buf := make([]byte, m.size)
		if err := m.copyAll(ctx, &sliceWriter{buf: buf}); err != nil {
			return nil, err
		}
		return tensor.NewStorage(buf), nil
	}
	st, buf, err := tensor.NewAnonymous(int(m.size))
	if err != nil {
		return nil, err
	}
	if err := m.copyAll(ctx, &sliceWriter{buf: buf}); err != nil {
		st.Close()
		return nil, err
	}
	m.doc.Own(st)
	return st, nil
}

// sliceWriter fills buf. As an io.ReaderFrom it has the decompressor
// write straight into buf, without io.Copy's intermediate buffer: one copy
// of the member's bytes instead of two.
type sliceWriter struct {
	buf []byte
	n   int
}

func (w *sliceWriter) Write(p []byte) (int, error) {
	n := copy(w.buf[w.n:], p)
	w.n += n
	if n < len(p) {
		return n, io.ErrShortWrite
	}
	return n, nil
}

// ReadFrom reads r until it ends or buf is full; more data than buf holds
// is io.ErrShortWrite, as Write reports it.
func (w *sliceWriter) ReadFrom(r io.Reader) (int64, error) {
	start := w.n
	for w.n < len(w.buf) {
		k, err := r.Read(w.buf[w.n:])
		w.n += k
		if err == io.EOF {
			return int64(w.n - start), nil
		}
		if err != nil {
			return int64(w.n - start), err
		}
	}
	var one [1]byte
	if k, _ := r.Read(one[:]); k > 0 {
		return int64(w.n - start), io.ErrShortWrite
	}
	return int64(w.n - start), nil
}

// inflateToFile writes the member to a temporary file, maps it as a shard
// of the document (unmapped on Close) and unlinks it at once, so nothing is
// left behind however the process ends.
func (m *inflater) inflateToFile(ctx context.Context) (*tensor.Storage, error) {
	tmp, err := os.CreateTemp("", "tensorscope-npz-*.npy")
	if err != nil {
		return nil, fmt.Errorf("temporary file for a %d-byte member: %v", m.size, err)
	}
	name := tmp.Name()
	defer os.Remove(name)
	err = m.copyAll(ctx, tmp)
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("temporary file: %v", cerr)
	}
	if err != nil {
		return nil, err
	}
	st, err := m.doc.AddShard(name).Storage()
	if err != nil {
		return nil, err
	}
	st.DropBehind() // passes over it release what they read: see tensor.Storage.DropBehind
	return st, nil
}

// copyAll inflates exactly the declared size into w, reporting progress and
// checking ctx between chunks, then checks that the stream ends there (which
// also makes archive/zip verify the member's CRC-32).
func (m *inflater) copyAll(ctx context.Context, w io.Writer) error {
	rc, err := m.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	defer m.readAhead()()
	var done int64
	for done < m.size {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := io.CopyN(w, rc, min(m.size-done, inflateChunk))
		done += n
		if err != nil {
			if errors.Is(err, io.ErrShortWrite) {
				return fmt.Errorf("writing the inflated member: %v", err)
			}
			return m.streamErr(err, done)
		}
		formats.ReportProgress(ctx, done, m.size)
	}
	var one [1]byte
	n, err := rc.Read(one[:])
	if n > 0 || errors.Is(err, zip.ErrFormat) {
		return formats.Errorf(m.at, "deflate stream inflates past the %d bytes the member declares", m.size)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return m.streamErr(err, done)
	}
	return nil
}
