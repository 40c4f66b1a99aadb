package pytorch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"tensorscope/formats"
	"tensorscope/formats/internal/zipfile"
	"tensorscope/tensor"
)

// torch.save stores its members uncompressed, but an archive re-zipped by
// another tool may deflate them: a deflated storage is inflated on first
// use, as .npz members are (zipfile.Inflater).

// maxPickleBytes bounds an inflated pickle or source member, which is
// read whole at open.
const maxPickleBytes = 1 << 30

// member is one file of the archive.
type member struct {
	name string
	zm   zipfile.Member
	at   int64 // offset of its data in the zip
	size int64 // uncompressed size
}

func newMember(zm *zipfile.Member, at int64) *member {
	return &member{name: string(zm.Name), zm: *zm, at: at, size: int64(zm.UncompressedSize)}
}

// storedIn reports whether a stored member's bytes lie within data.
func (m *member) storedIn(data []byte) bool {
	return m.size >= 0 && m.at >= 0 && int64(m.zm.CompressedSize) == m.size && m.size <= int64(len(data))-m.at
}

// inflater sets up the inflation of a deflated member, refusing a zip bomb.
func (m *member) inflater(doc *formats.Document, src *formats.Source) (*zipfile.Inflater, error) {
	in := new(zipfile.Inflater)
	if err := in.Init(doc, src.Storage, m.at, &m.zm); err != nil {
		return nil, formats.Errorf(m.at, "member %q %v", m.name, err)
	}
	return in, nil
}

// readAll returns a member's bytes: stored ones in place, deflated ones
// inflated into the heap, up to limit bytes.
func (m *member) readAll(doc *formats.Document, src *formats.Source, limit int64) ([]byte, error) {
	switch m.zm.Method {
	case zipfile.Store:
		if !m.storedIn(src.Data) {
			return nil, formats.Errorf(m.at, "member %q of %d bytes does not fit in the %d-byte file", m.name, m.size, len(src.Data))
		}
		return src.Data[m.at : m.at+m.size], nil
	case zipfile.Deflate:
	default:
		return nil, formats.Errorf(m.at, "member %q: compression method %d (expected 0 stored or 8 deflate)", m.name, m.zm.Method)
	}
	in, err := m.inflater(doc, src)
	if err != nil {
		return nil, err
	}
	if m.size > limit {
		return nil, formats.Errorf(m.at, "member %q inflates to %d bytes, more than the %d read at open", m.name, m.size, limit)
	}
	b, err := in.ReadAll(context.Background())
	if err != nil {
		return nil, memberError(m.name, err)
	}
	return b, nil
}

// memberError names the member in err, keeping its byte offset.
func memberError(name string, err error) error {
	return prefixError(fmt.Sprintf("member %q", name), err)
}

// prefixError is err said of what, keeping its byte offset.
func prefixError(what string, err error) error {
	var fe *formats.Error
	if errors.As(err, &fe) {
		return formats.Errorf(fe.Offset, "%s: %s", what, fe.Msg)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// unpickleBase is the file offset of a member's first byte as the
// unpickler's messages count it: 0 in an inflated member.
func (m *member) unpickleBase() int64 {
	if m.zm.Method != zipfile.Store {
		return 0 // offsets inside an inflated member are not file offsets
	}
	return m.at
}

func methodName(m uint16) string {
	switch m {
	case zipfile.Store:
		return "stored"
	case zipfile.Deflate:
		return "deflated"
	}
	return fmt.Sprintf("compression method %d", m)
}

// dataOffsets finds where each member's bytes start, reading its local
// header through r. A checkpoint of 2,000 tensors has 2,000 of them, each
// a system call (a quarter of the open), so the larger archives share
// them out among the CPUs.
func dataOffsets(dir *zipfile.Directory, r io.ReaderAt, list []zipfile.Member) ([]int64, []error) {
	offsets, errs := make([]int64, len(list)), make([]error, len(list))
	workers := min(runtime.GOMAXPROCS(0), 4, len(list)/256+1)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(list)/workers, (w+1)*len(list)/workers
		wg.Go(func() {
			i := lo
			// The reads fall back to the mapping: under the fault guard,
			// as every read of the file on any goroutine.
			if err := tensor.CatchFault(func() error {
				for ; i < hi; i++ {
					offsets[i], errs[i] = dir.ReadDataOffset(r, &list[i])
				}
				return nil
			}); err != nil {
				for ; i < hi; i++ {
					errs[i] = err
				}
			}
		})
	}
	wg.Wait()
	return offsets, errs
}
