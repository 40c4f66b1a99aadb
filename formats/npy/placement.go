package npy

import (
	"context"
	"fmt"
	"math/bits"
	"slices"

	"tensorscope/tensor"
)

// placement is where the elements of one viewable tensor lie in an array's
// data: the whole array of a numeric dtype, or one numeric field of a
// record. Offsets and strides are in bytes from the start of the data.
type placement struct {
	dtype     tensor.DType
	size      int // bytes per element
	shape     []int
	offset    int64
	strides   []int64
	bigEndian bool
}

// recordStrides returns the byte strides of an array of itemsize-byte
// elements laid out in C or Fortran order.
func recordStrides(shape []int, itemsize int, fortran bool) []int64 {
	st := make([]int64, len(shape))
	acc := int64(itemsize)
	if fortran {
		for i := range shape {
			st[i] = acc
			acc *= int64(max(shape[i], 1))
		}
		return st
	}
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= int64(max(shape[i], 1))
	}
	return st
}

// viewable reports whether the core can view the elements in place: at
// strides that are whole elements (the core swaps big-endian values as it
// reads them).
func (p *placement) viewable() bool {
	if p.size == 0 {
		return false
	}
	for _, s := range p.strides {
		if s%int64(p.size) != 0 {
			return false
		}
	}
	return true
}

// load returns the tensor over st, whose array data starts at dataOff: a
// strided view (big-endian when stored so) when possible, otherwise (fields
// at strides that are not whole elements, as in packed records) a row-major
// copy of this field's elements only, made on first use.
func (p *placement) load(ctx context.Context, st *tensor.Storage, dataOff int64) (*tensor.Tensor, error) {
	if p.viewable() {
		strides := make([]int, len(p.strides))
		for i, s := range p.strides {
			strides[i] = int(s / int64(p.size))
		}
		t, err := tensor.NewStrided(st, dataOff+p.offset, p.dtype, p.shape, strides)
		if err != nil || !p.bigEndian {
			return t, err
		}
		return t.BigEndian()
	}
	return p.gather(ctx, st.Bytes(), dataOff)
}

// gather copies the elements in row-major order, swapping big-endian bytes.
func (p *placement) gather(ctx context.Context, data []byte, dataOff int64) (*tensor.Tensor, error) {
	n, err := tensor.NumElements(p.shape)
	if err != nil {
		return nil, err
	}
	last := dataOff + p.offset
	for i, d := range p.shape {
		if d > 0 {
			last += int64(d-1) * p.strides[i]
		}
	}
	if n > 0 && (dataOff+p.offset < 0 || last+int64(p.size) > int64(len(data))) {
		return nil, fmt.Errorf("data of %s%v ends at byte %d, past the %d bytes there are", p.dtype, p.shape, last+int64(p.size), len(data))
	}
	out := make([]byte, n*p.size)
	idx := make([]int, len(p.shape))
	swapUnit := p.size
	if p.dtype.IsComplex() {
		swapUnit = p.size / 2 // real and imaginary parts are swapped apart
	}
	for e := 0; e < n; e++ {
		if e&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		off := dataOff + p.offset
		for i, v := range idx {
			off += int64(v) * p.strides[i]
		}
		dst := out[e*p.size : (e+1)*p.size]
		copy(dst, data[off:off+int64(p.size)])
		if p.bigEndian {
			for u := 0; u < p.size; u += swapUnit {
				slices.Reverse(dst[u : u+swapUnit])
			}
		}
		for i := len(idx) - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < p.shape[i] {
				break
			}
			idx[i] = 0
		}
	}
	return tensor.FromBytes(out, p.dtype, p.shape)
}

// fieldPlacements lists every numeric field of a record array, nested
// records flattened with dotted names ("pos.x"), sub-array fields with
// their shape appended.
func fieldPlacements(t *elemType, prefix string, base int64, shape []int, strides []int64) (names []string, out []*placement, skipped []string) {
	for _, f := range t.fields {
		if f.name == "" {
			continue // padding
		}
		name := prefix + "." + f.name
		fshape := append(append([]int(nil), shape...), f.subshape...)
		fstrides := append(append([]int64(nil), strides...), recordStrides(f.subshape, f.elem.size, false)...)
		if _, err := tensor.NumElements(fshape); err != nil {
			skipped = append(skipped, name)
			continue
		}
		switch {
		case f.elem.kind == 'r':
			n, o, s := fieldPlacements(f.elem, name, base+int64(f.offset), fshape, fstrides)
			names, out, skipped = append(names, n...), append(out, o...), append(skipped, s...)
		case f.elem.numeric():
			names = append(names, name)
			out = append(out, &placement{dtype: f.elem.dtype, size: f.elem.size, shape: fshape,
				offset: base + int64(f.offset), strides: fstrides, bigEndian: f.elem.bigEndian()})
		}
	}
	return names, out, skipped
}

// elementOffset is the byte offset of row-major element flat of an array.
func elementOffset(shape []int, strides []int64, flat int) int64 {
	var off int64
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] == 0 {
			return 0
		}
		q, r := bits.Div64(0, uint64(flat), uint64(shape[i]))
		off += int64(r) * strides[i]
		flat = int(q)
	}
	return off
}
