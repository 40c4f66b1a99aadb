package zipfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// maxDeflateRatio is the most bytes one byte of a deflate stream can expand
// to (a 258-byte match in 2 bits). A member declaring more is lying, and is
// refused before anything is allocated.
const maxDeflateRatio = 1032

// InMemoryLimit is the largest member inflated into memory; larger ones go
// to an unlinked temporary file that is mapped like the zip itself, and
// whose pages every pass releases once read, so that such a member never
// takes more than a few megabytes per core of resident memory. Tests lower
// it to reach the temporary file with small members.
var InMemoryLimit int64 = 512 << 20

// smallMember is the size below which a member inflates into the Go heap
// rather than a mapping of its own: a mapping takes at least a page and
// one of the process's 65,530 mappings, which an archive of 100,000 small
// arrays exhausted (and took 1.1 GB of pages for 16 MB of arrays).
const smallMember = 256 << 10

// inflateChunk is how much is inflated between checks of the context.
const inflateChunk = 1 << 20

// Inflater decompresses one deflated member on first use and keeps the
// result for the document's lifetime. Its zero value is ready for Init; a
// codec keeps one per deflated member (embedded: an archive of 100,000
// arrays has 100,000), so it holds only what inflating needs.
type Inflater struct {
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

// CheckRatio refuses a member that declares more bytes than its compressed
// bytes can inflate to: a zip bomb, refused before anything is allocated.
func CheckRatio(m *Member) error {
	size, packed := m.UncompressedSize, m.CompressedSize
	if size > 1<<62 || (packed < (1<<62)/maxDeflateRatio && size > packed*maxDeflateRatio+1024) {
		return fmt.Errorf("declares %d bytes inflated from %d compressed, more than deflate can produce (a zip bomb)", size, packed)
	}
	return nil
}

// Init sets the inflater up for member m of the mapped zip, whose
// compressed bytes start at at (its DataOffset); doc owns what inflating
// makes. It refuses a member that fails CheckRatio.
func (m *Inflater) Init(doc *formats.Document, zip *tensor.Storage, at int64, member *Member) error {
	if err := CheckRatio(member); err != nil {
		return err
	}
	m.doc, m.zip, m.at = doc, zip, at
	m.packed, m.size = int64(min(member.CompressedSize, 1<<62)), int64(member.UncompressedSize)
	m.crc, m.descriptor = member.CRC32, member.Flags&0x8 != 0
	return nil
}

// Size is the member's declared inflated size.
func (m *Inflater) Size() int64 { return m.size }

// CompressedSize is the member's bytes in the zip.
func (m *Inflater) CompressedSize() int64 { return m.packed }

// Inflate returns the member's inflated bytes as storage, inflating them
// on first call: small members into the heap, larger ones into an
// anonymous mapping, those above InMemoryLimit into a temporary file. A
// cancelled inflation is not remembered, so it can be retried.
func (m *Inflater) Inflate(ctx context.Context) (*tensor.Storage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.st != nil || m.err != nil {
		return m.st, m.err
	}
	var st *tensor.Storage
	var err error
	if m.size > InMemoryLimit {
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

// ReadAll inflates the whole member into a new buffer of the heap that
// the caller keeps, for a member read once while opening (a pickle): the
// inflater keeps nothing, and the buffer goes with the garbage collector
// whether or not the document opens.
func (m *Inflater) ReadAll(ctx context.Context) ([]byte, error) {
	buf := make([]byte, m.size)
	if err := m.copyAll(ctx, &sliceWriter{buf: buf}); err != nil {
		return nil, err
	}
	return buf, nil
}

func (m *Inflater) inflateToMemory(ctx context.Context) (*tensor.Storage, error) {
	if m.size < smallMember {
		buf, err := m.ReadAll(ctx)
		if err != nil {
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
func (m *Inflater) inflateToFile(ctx context.Context) (*tensor.Storage, error) {
	tmp, err := os.CreateTemp("", "tensorscope-member-*")
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
// also verifies the member's CRC-32).
func (m *Inflater) copyAll(ctx context.Context, w io.Writer) error {
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
			return m.StreamError(err, done)
		}
		formats.ReportProgress(ctx, done, m.size)
	}
	var one [1]byte
	n, err := rc.Read(one[:])
	if n > 0 || errors.Is(err, errPastSize) {
		return formats.Errorf(m.at, "deflate stream inflates past the %d bytes the member declares", m.size)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return m.StreamError(err, done)
	}
	return nil
}
