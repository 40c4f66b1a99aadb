package tsr

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// ErrChecksum is wrapped by load errors when a tensor's data does not match
// the CRC-32 its file records.
var ErrChecksum = errors.New("CRC-32 mismatch")

// openVerifyBudget bounds how much tensor data opening a file may read to
// check data CRCs. Opening is meant to read headers only; a small file's
// checksums are still worth reporting as warnings right away, while a large
// file's are checked when a tensor is loaded, so that `info` on a 2 GiB
// file touches no data pages.
var openVerifyBudget int64 = 16 << 20

// maxDeflateRatio is the most bytes one byte of a deflate stream can expand
// to (a 258-byte match coded in 2 bits). A header claiming a larger raw size
// for its payload is corrupt, and is refused before anything is allocated.
const maxDeflateRatio = 1032

// loadChunk is how much data is checksummed or inflated between checks of
// the load's context.
const loadChunk = 1 << 20

// block is one tensor's data as stored in a file: raw bytes, or a zlib
// stream that inflates to raw bytes.
type block struct {
	dtype  tensor.DType
	shape  []int
	offset int64 // payload offset in the file
	size   int64 // payload bytes in the file
	raw    int64 // bytes of the tensor's data (== size unless zlib)
	zlib   bool
	crc    uint32 // CRC-32 (IEEE) of the raw data
	hasCRC bool   // the file records a CRC for this block
	crcAt  int64  // offset of the CRC field, for messages
	extra  []formats.Attr
}

// maxRaw is the largest raw size a zlib payload of n bytes can hold.
func maxRaw(n int64) int64 {
	if n > (1<<62)/maxDeflateRatio {
		return 1 << 62
	}
	return n*maxDeflateRatio + 64
}

// verify computes the CRC-32 of the block's raw data from the file's bytes,
// inflating a zlib payload in a stream so nothing is allocated.
func (b *block) verify(data []byte) (uint32, error) {
	payload := data[b.offset : b.offset+b.size]
	if !b.zlib {
		return crc32.ChecksumIEEE(payload), nil
	}
	zr, err := zlib.NewReader(bytes.NewReader(payload))
	if err != nil {
		return 0, formats.Errorf(b.offset, "zlib stream: %v", err)
	}
	h := crc32.NewIEEE()
	if err := copyExact(context.Background(), h, zr, b.raw, b.offset); err != nil {
		return 0, err
	}
	return h.Sum32(), nil
}

// copyExact copies exactly n bytes of inflated data from zr to w and checks
// that the stream ends there (which also makes zlib verify its Adler-32).
func copyExact(ctx context.Context, w io.Writer, zr io.Reader, n, at int64) error {
	var done int64
	for done < n {
		if err := ctx.Err(); err != nil {
			return err
		}
		step := min(n-done, loadChunk)
		m, err := io.CopyN(w, zr, step)
		done += m
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return formats.Errorf(at, "zlib stream: expected %d bytes of data, the stream ends after %d", n, done)
			}
			return formats.Errorf(at, "zlib stream: %v after %d of %d bytes", err, done, n)
		}
	}
	var one [1]byte
	m, err := zr.Read(one[:])
	if m > 0 {
		return formats.Errorf(at, "zlib stream: inflates past the declared %d bytes of data", n)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return formats.Errorf(at, "zlib stream: %v", err)
	}
	return nil
}

// growWriter collects inflated bytes into a buffer that grows with what the
// stream really produces (capped at the declared size), so that a corrupt
// header declaring a huge size cannot make a short stream allocate it.
type growWriter struct{ buf []byte }

func (g *growWriter) Write(p []byte) (int, error) {
	g.buf = append(g.buf, p...)
	return len(p), nil
}

// inflate decompresses the block's payload into a fresh buffer.
func (b *block) inflate(ctx context.Context, data []byte) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(data[b.offset : b.offset+b.size]))
	if err != nil {
		return nil, formats.Errorf(b.offset, "zlib stream: %v", err)
	}
	g := &growWriter{buf: make([]byte, 0, min(b.raw, 4*b.size+loadChunk))}
	if err := copyExact(ctx, g, zr, b.raw, b.offset); err != nil {
		return nil, err
	}
	return g.buf, nil
}

// crcOf computes the CRC-32 of p, checking ctx between chunks.
func crcOf(ctx context.Context, p []byte) (uint32, error) {
	var c uint32
	for len(p) > 0 {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		n := min(len(p), loadChunk)
		c = crc32.Update(c, crc32.IEEETable, p[:n])
		p = p[n:]
	}
	return c, nil
}

func (b *block) mismatch(got uint32) error {
	return fmt.Errorf("%w: at byte %d the file records data CRC-32 0x%08x, the data has 0x%08x",
		ErrChecksum, b.crcAt, b.crc, got)
}

// loader returns the lazy loader of the block. RAW data is viewed in place
// (zero copy); zlib data is inflated into a new storage. checkCRC is set when
// opening did not verify the CRC, so the loader must.
func (b *block) loader(st *tensor.Storage, checkCRC bool) func(ctx context.Context) (*tensor.Tensor, error) {
	blk := *b
	return func(ctx context.Context) (*tensor.Tensor, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data := st.Bytes()
		if int64(len(data)) < blk.offset+blk.size {
			return nil, fmt.Errorf("the file's data is no longer available (document closed)")
		}
		if !blk.zlib {
			if checkCRC {
				got, err := crcOf(ctx, data[blk.offset:blk.offset+blk.raw])
				if err != nil {
					return nil, err
				}
				if got != blk.crc {
					return nil, blk.mismatch(got)
				}
			}
			return tensor.New(st, blk.offset, blk.dtype, blk.shape)
		}
		raw, err := blk.inflate(ctx, data)
		if err != nil {
			return nil, err
		}
		if checkCRC {
			if got := crc32.ChecksumIEEE(raw); got != blk.crc {
				return nil, blk.mismatch(got)
			}
		}
		return tensor.New(tensor.NewStorage(raw), 0, blk.dtype, blk.shape)
	}
}

// attach fills the entry's data facts and installs its loader; verified says
// whether opening already checked the CRC.
func (b *block) attach(e *formats.TensorEntry, st *tensor.Storage, verified bool) {
	e.DType, e.Shape, e.Offset, e.NBytes = b.dtype, b.shape, b.offset, b.size
	if b.zlib {
		e.Attrs = append(e.Attrs,
			formats.Attr{Name: "compression", Value: "zlib"},
			formats.Attr{Name: "raw_bytes", Value: b.raw})
	}
	switch {
	case !b.hasCRC && b.crcAt == 0: // the format has no checksum
	case !b.hasCRC:
		e.Attrs = append(e.Attrs, formats.Attr{Name: "crc32", Value: "none recorded"})
	case verified:
		e.Attrs = append(e.Attrs, formats.Attr{Name: "crc32", Value: fmt.Sprintf("0x%08x (checked when opened)", b.crc)})
	default:
		e.Attrs = append(e.Attrs, formats.Attr{Name: "crc32", Value: fmt.Sprintf("0x%08x (checked when loaded)", b.crc)})
	}
	e.Attrs = append(e.Attrs, b.extra...)
	e.SetLoader(b.loader(st, b.hasCRC && !verified))
}

// verifyAtOpen checks every block's CRC when their data is small enough
// (see openVerifyBudget), adding a warning per mismatch. It reports whether
// the blocks were checked.
func verifyAtOpen(doc *formats.Document, data []byte, blocks []*block, what func(i int) string) bool {
	var total int64
	for _, b := range blocks {
		total += b.raw
		if total > openVerifyBudget {
			return false
		}
	}
	for i, b := range blocks {
		if !b.hasCRC {
			continue
		}
		got, err := b.verify(data)
		switch {
		case err != nil:
			var fe *formats.Error
			if errors.As(err, &fe) {
				doc.Warn(fe.Offset, "%s: %s", what(i), fe.Msg)
			} else {
				doc.Warn(b.offset, "%s: %v", what(i), err)
			}
		case got != b.crc:
			doc.Warn(b.crcAt, "%s: data CRC-32 mismatch: the file records 0x%08x, the data has 0x%08x", what(i), b.crc, got)
		}
	}
	return true
}
