package formats

import (
	"encoding/binary"
	"math"
)

// Reader reads little-endian values from a file's bytes with bounds checks.
// The first failure sticks: later reads return zero values, and Err reports
// the failure with its offset and what was being read. Codecs read a struct
// field by field and check Err once.
type Reader struct {
	data []byte
	off  int64
	err  error
}

// NewReader returns a Reader over data positioned at 0.
func NewReader(data []byte) *Reader { return &Reader{data: data} }

// Err returns the first failure, or nil.
func (r *Reader) Err() error { return r.err }

// Fail records err unless a failure is already recorded.
func (r *Reader) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Failf records an *Error at offset unless a failure is already recorded.
func (r *Reader) Failf(offset int64, format string, args ...any) {
	r.Fail(Errorf(offset, format, args...))
}

// Offset is the current position.
func (r *Reader) Offset() int64 { return r.off }

// Size is the length of the underlying data.
func (r *Reader) Size() int64 { return int64(len(r.data)) }

// Remaining is the number of bytes after the current position.
func (r *Reader) Remaining() int64 {
	if r.off >= int64(len(r.data)) {
		return 0
	}
	return int64(len(r.data)) - r.off
}

// SeekTo moves to an absolute offset; moving outside the data is a failure
// naming what was sought.
func (r *Reader) SeekTo(off int64, what string) {
	if r.err != nil {
		return
	}
	if off < 0 || off > int64(len(r.data)) {
		r.err = truncatedf(off, "%s: offset %d is outside the file (size %d)", what, off, len(r.data))
		return
	}
	r.off = off
}

// Bytes returns the next n bytes (a sub-slice, not a copy) and advances.
func (r *Reader) Bytes(n int64, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > int64(len(r.data))-r.off {
		r.err = truncatedf(r.off, "%s: need %d bytes, only %d left in the file", what, n, r.Remaining())
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

// Skip advances n bytes.
func (r *Reader) Skip(n int64, what string) { r.Bytes(n, what) }

func (r *Reader) U8(what string) uint8 {
	b := r.Bytes(1, what)
	if b == nil {
		return 0
	}
	return b[0]
}

func (r *Reader) U16(what string) uint16 {
	b := r.Bytes(2, what)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint16(b)
}

func (r *Reader) U32(what string) uint32 {
	b := r.Bytes(4, what)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (r *Reader) U64(what string) uint64 {
	b := r.Bytes(8, what)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

func (r *Reader) I32(what string) int32 { return int32(r.U32(what)) }
func (r *Reader) I64(what string) int64 { return int64(r.U64(what)) }
func (r *Reader) F32(what string) float32 {
	return math.Float32frombits(r.U32(what))
}

// Count reads a u32 element count and checks that count elements of at
// least minSize bytes each could fit in the rest of the file, so that a
// corrupt count fails here instead of driving a huge allocation or loop.
func (r *Reader) Count(minSize int64, what string) int {
	at := r.off
	n := int64(r.U32(what))
	if r.err != nil {
		return 0
	}
	if minSize < 1 {
		minSize = 1
	}
	if n > r.Remaining()/minSize {
		r.err = Errorf(at, "%s: count %d needs at least %d bytes, only %d left in the file",
			what, n, n*minSize, r.Remaining())
		return 0
	}
	return int(n)
}
