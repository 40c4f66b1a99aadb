package tensor

import (
	"context"
	"encoding/binary"
)

// ContiguousBytes returns the elements of t in row-major order as
// little-endian bytes (the layout of .npy and .tsr data). When the elements
// already lie adjacent in storage in that order, little-endian, the result
// aliases the storage (zero-copy) and must not be modified; otherwise it is
// a fresh copy, gathered (and for a big-endian tensor swapped) in parallel.
// Packed elements and complex magnitudes have no bytes of their own and
// fail with ErrNoBytes: convert them with ToFloat32.
func (t *Tensor) ContiguousBytes(ctx context.Context) ([]byte, error) {
	if err := t.checkBytes("ContiguousBytes"); err != nil {
		return nil, err
	}
	l := newLayout(t, false)
	size := int64(l.size)
	if l.dense() && !t.bigEndian {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		end := l.base + int(l.n*size)
		if l.n == 0 {
			return []byte{}, nil
		}
		return l.data[l.base:end:end], nil
	}
	out := make([]byte, l.n*size)
	plan := planChunks(l.n)
	err := parallel(ctx, plan.count, func() func(int) error {
		return func(c int) error {
			lo, hi := plan.bounds(c)
			return steps(ctx, lo, hi, nil, func(lo, hi int64) {
				dst := out[lo*size : hi*size]
				l.runs(lo, hi, func(off, n int) {
					k := n * l.size
					if l.istride == l.size {
						copy(dst[:k], l.data[off:off+k])
					} else {
						gather(dst[:k], l.data, off, l.istride, l.size)
					}
					if t.bigEndian {
						swapElements(dst[:k], t.dtype)
					}
					dst = dst[k:]
				})
			})
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Contiguous returns a row-major copy of t in a fresh heap Storage. It
// always copies, so the result stays valid after t's storage (a mapped
// file, say) is closed.
func (t *Tensor) Contiguous(ctx context.Context) (*Tensor, error) {
	b, err := t.ContiguousBytes(ctx)
	if err != nil {
		return nil, err
	}
	if len(b) > 0 && !t.bigEndian && &b[0] == &t.storage.data[t.offset] {
		b = append([]byte(nil), b...)
	}
	return FromBytes(b, t.dtype, t.shape)
}

// gather copies elements of size bytes, stride bytes apart from off, into
// dst back to back.
func gather(dst, src []byte, off, stride, size int) {
	le := binary.LittleEndian
	switch size {
	case 1:
		for i := range dst {
			dst[i] = src[off+i*stride]
		}
	case 2:
		for i := 0; i+2 <= len(dst); i += 2 {
			le.PutUint16(dst[i:], le.Uint16(src[off:]))
			off += stride
		}
	case 4:
		for i := 0; i+4 <= len(dst); i += 4 {
			le.PutUint32(dst[i:], le.Uint32(src[off:]))
			off += stride
		}
	case 8:
		for i := 0; i+8 <= len(dst); i += 8 {
			le.PutUint64(dst[i:], le.Uint64(src[off:]))
			off += stride
		}
	default:
		for i := 0; i+size <= len(dst); i += size {
			copy(dst[i:i+size], src[off:off+size])
			off += stride
		}
	}
}
