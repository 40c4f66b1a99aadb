package gguf

import (
	"encoding/binary"
	"errors"
	"math"

	"tensorscope/formats"
)

// errPrefix is returned when parsing ran past the bytes read so far of a
// file whose header is read in growing prefixes (the further shards of a
// split set); the caller reads more and tries again.
var errPrefix = errors.New("gguf: header continues past the bytes read")

// reader reads GGUF values in the file's byte order. The first failure
// sticks and names the offset and what was being read.
type reader struct {
	data     []byte
	fileSize int64 // size of the whole file; len(data) may be a prefix of it
	off      int64
	order    binary.ByteOrder
	err      error
}

func (r *reader) failf(off int64, format string, args ...any) {
	if r.err == nil {
		r.err = formats.Errorf(off, format, args...)
	}
}

// remaining is what is left of the file (not of the prefix read).
func (r *reader) remaining() int64 {
	if r.off >= r.fileSize {
		return 0
	}
	return r.fileSize - r.off
}

func (r *reader) bytes(n int64, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > r.remaining() {
		r.failf(r.off, "%s: need %d bytes, only %d left in the file", what, n, r.remaining())
		return nil
	}
	if r.off+n > int64(len(r.data)) {
		r.err = errPrefix
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

func (r *reader) u8(what string) uint8 {
	if b := r.bytes(1, what); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u16(what string) uint16 {
	if b := r.bytes(2, what); b != nil {
		return r.order.Uint16(b)
	}
	return 0
}

func (r *reader) u32(what string) uint32 {
	if b := r.bytes(4, what); b != nil {
		return r.order.Uint32(b)
	}
	return 0
}

func (r *reader) u64(what string) uint64 {
	if b := r.bytes(8, what); b != nil {
		return r.order.Uint64(b)
	}
	return 0
}

// count reads a u64 element count and checks that count elements of at
// least minSize bytes each fit in the rest of the file, so that a hostile
// count fails here rather than driving a loop or an allocation.
func (r *reader) count(minSize int64, what string) int64 {
	at := r.off
	n := r.u64(what)
	if r.err != nil {
		return 0
	}
	if minSize < 1 {
		minSize = 1
	}
	if n > uint64(r.remaining()/minSize) {
		r.failf(at, "%s: count %d needs at least %d bytes, only %d left in the file",
			what, n, satMul(n, uint64(minSize)), r.remaining())
		return 0
	}
	return int64(n)
}

// str reads a gguf_string: a u64 byte length and that many bytes.
func (r *reader) str(what string) string {
	n := r.count(1, what+" length")
	return string(r.bytes(n, what))
}

func satMul(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}
