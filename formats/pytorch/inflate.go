package pytorch

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	kflate "github.com/klauspost/compress/flate"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// torch.save stores its members uncompressed, but an archive re-zipped by
// another tool may deflate them. A deflated storage is inflated on first
// use into an anonymous mapping the document owns, as .npz members are.

// maxDeflateRatio is the most one byte of a deflate stream can expand to;
// a member declaring more is a zip bomb and refused before anything is
// allocated.
const maxDeflateRatio = 1032

// maxPickleBytes bounds an inflated pickle or source member, which is
// read whole at open.
const maxPickleBytes = 1 << 30

// inflateChunk is how much is inflated between checks of the context.
const inflateChunk = 1 << 20

// member is one file of the archive.
type member struct {
	f    *zip.File
	at   int64 // offset of its data in the zip
	size int64 // uncompressed size
}

// checkRatio refuses a member that declares more bytes than its
// compressed bytes can inflate to.
func (m *member) checkRatio() error {
	packed, size := m.f.CompressedSize64, m.f.UncompressedSize64
	if size > 1<<62 || (packed < (1<<62)/maxDeflateRatio && size > packed*maxDeflateRatio+1024) {
		return formats.Errorf(m.at, "member %q declares %d bytes inflated from %d compressed, more than deflate can produce (a zip bomb)", m.f.Name, size, packed)
	}
	return nil
}

// readAll returns a member's bytes: stored ones in place, deflated ones
// inflated, up to limit bytes.
func (m *member) readAll(data []byte, limit int64) ([]byte, error) {
	if m.f.Method == zip.Store {
		if m.at+m.size > int64(len(data)) || int64(m.f.CompressedSize64) != m.size {
			return nil, formats.Errorf(m.at, "member %q of %d bytes does not fit in the %d-byte file", m.f.Name, m.size, len(data))
		}
		return data[m.at : m.at+m.size], nil
	}
	if m.f.Method != zip.Deflate {
		return nil, formats.Errorf(m.at, "member %q: compression method %d (expected 0 stored or 8 deflate)", m.f.Name, m.f.Method)
	}
	if err := m.checkRatio(); err != nil {
		return nil, err
	}
	if m.size > limit {
		return nil, formats.Errorf(m.at, "member %q inflates to %d bytes, more than the %d read at open", m.f.Name, m.size, limit)
	}
	buf := make([]byte, m.size)
	rc, err := m.f.Open()
	if err != nil {
		return nil, formats.Errorf(m.at, "member %q: %v", m.f.Name, err)
	}
	defer rc.Close()
	if _, err := io.ReadFull(rc, buf); err != nil {
		return nil, formats.Errorf(m.at, "member %q: deflate stream: %v", m.f.Name, err)
	}
	if err := endsHere(rc); err != nil {
		return nil, formats.Errorf(m.at, "member %q: %v", m.f.Name, err)
	}
	return buf, nil
}

// endsHere checks that a member's stream ends at its declared size (which
// also makes archive/zip check its CRC-32).
func endsHere(rc io.Reader) error {
	var one [1]byte
	n, err := rc.Read(one[:])
	if n > 0 || errors.Is(err, zip.ErrFormat) {
		return fmt.Errorf("the deflate stream inflates past its declared size")
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// inflater inflates one deflated storage member on first use and keeps
// it for the document's lifetime.
type inflater struct {
	doc *formats.Document
	m   *member

	mu  sync.Mutex
	st  *tensor.Storage
	err error
}

func (in *inflater) storage(ctx context.Context) (*tensor.Storage, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.st != nil || in.err != nil {
		return in.st, in.err
	}
	st, err := in.inflate(ctx)
	if err != nil {
		if ctx.Err() == nil {
			in.err = err
		}
		return nil, err
	}
	in.st = st
	return st, nil
}

func (in *inflater) inflate(ctx context.Context) (*tensor.Storage, error) {
	st, buf, err := tensor.NewAnonymous(int(in.m.size))
	if err != nil {
		return nil, err
	}
	rc, err := in.m.f.Open()
	if err != nil {
		st.Close()
		return nil, formats.Errorf(in.m.at, "member %q: %v", in.m.f.Name, err)
	}
	defer rc.Close()
	var done int64
	for done < in.m.size {
		if err := ctx.Err(); err != nil {
			st.Close()
			return nil, err
		}
		n, err := io.ReadFull(rc, buf[done:min(in.m.size, done+inflateChunk)])
		done += int64(n)
		if err != nil {
			st.Close()
			return nil, formats.Errorf(in.m.at, "member %q: deflate stream ends after %d of its %d bytes: %v", in.m.f.Name, done, in.m.size, err)
		}
		formats.ReportProgress(ctx, done, in.m.size)
	}
	if err := endsHere(rc); err != nil {
		st.Close()
		return nil, formats.Errorf(in.m.at, "member %q: %v", in.m.f.Name, err)
	}
	in.doc.Own(st)
	return st, nil
}

// fastInflate is the zip reader's deflate decompressor: klauspost's,
// reading the compressed bytes straight from the mapped file.
func fastInflate(data []byte, zipReader io.ReaderAt) zip.Decompressor {
	return func(r io.Reader) io.ReadCloser {
		if sr, ok := r.(*io.SectionReader); ok {
			outer, off, n := sr.Outer()
			if outer == zipReader && off >= 0 && n >= 0 && off <= int64(len(data))-n {
				return kflate.NewReader(bytes.NewReader(data[off : off+n]))
			}
		}
		return kflate.NewReader(r)
	}
}
