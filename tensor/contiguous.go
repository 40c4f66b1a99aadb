package tensor

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
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
			t.prefault(&l, lo, hi)
			defer t.release(&l, lo, hi)
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
// file, say) is closed. Packed views are copied packed: sub-byte elements
// repacked from their values (exact), block-quantised ones as their units,
// which needs the view to be whole blocks in order (a view from inside a
// block fails with ErrNoBytes: use ToFloat32). A complex magnitude fails
// with ErrNoBytes.
func (t *Tensor) Contiguous(ctx context.Context) (*Tensor, error) {
	if t.dtype.Packed() {
		return t.contiguousPacked(ctx)
	}
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

// contiguousPacked is Contiguous for packed dtypes.
func (t *Tensor) contiguousPacked(ctx context.Context) (*Tensor, error) {
	l := newLayout(t, false)
	n := l.n
	if t.dtype.BlockQuantized() {
		ue := int64(t.dtype.UnitElems())
		if !l.dense() || (n > 0 && t.phase != 0) || n%ue != 0 {
			return nil, fmt.Errorf("Contiguous of %s: %w (the view does not hold whole %s blocks in order; convert with ToFloat32)",
				t, ErrNoBytes, t.dtype)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		size := n / ue * int64(t.dtype.UnitBytes())
		b := append([]byte(nil), t.storage.data[t.offset:t.offset+int(size)]...)
		return FromBytes(b, t.dtype, t.shape)
	}
	f, err := t.ToFloat32(ctx)
	if err != nil {
		return nil, err
	}
	vals := make([]float32, n)
	for i := range vals {
		vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(f.storage.data[4*i:]))
	}
	b, err := PackSubByte(t.dtype, vals)
	if err != nil {
		return nil, err
	}
	return FromBytes(b, t.dtype, t.shape)
}
