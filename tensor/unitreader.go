package tensor

import "math/bits"

// unitReader decodes elements of a packed tensor, addressed by element
// number from the unit at origin. Contiguous runs decode whole units
// straight into the destination; partial units at a run's ends, and every
// element of a strided walk, come from the unit that holds them, decoded
// once into a cache and kept while the walk stays in it — a walk down a
// column of q4_k meets each unit again on the next row only if rows are
// short, but along a row it decodes each unit once instead of 256 times.
type unitReader struct {
	data        []byte
	origin      int // byte offset of unit 0
	ub          int // bytes per unit
	shift       uint
	mask        int // UnitElems − 1 (units hold a power of two of elements)
	decodeUnits func(dst []float32, src []byte)
	swap        func(unit []byte) // big-endian block units, or nil

	unit    []float32 // the values of unit cached
	cached  int       // its index, −1 for none
	scratch []byte    // a unit's bytes when they must be copied first
}

func newUnitReader(t *Tensor) *unitReader {
	ue := t.dtype.UnitElems()
	if ue&(ue-1) != 0 {
		panic("tensor: unit of " + t.dtype.String() + " is not a power of two")
	}
	r := &unitReader{
		data:        t.storage.data,
		origin:      t.offset,
		ub:          t.dtype.UnitBytes(),
		shift:       uint(bits.TrailingZeros(uint(ue))),
		mask:        ue - 1,
		decodeUnits: unitDecoders[t.dtype],
		unit:        make([]float32, ue),
		cached:      -1,
	}
	if t.bigEndian {
		r.swap = unitSwappers[t.dtype]
	}
	return r
}

// unitBytes returns the bytes of unit u: in place when they lie wholly in
// storage and need no swapping, else a copy — swapped, or zero-padded for a
// last unit that a densely packed sub-byte tensor ends inside.
func (r *unitReader) unitBytes(u int) []byte {
	start := r.origin + u*r.ub
	end := start + r.ub
	if end <= len(r.data) && r.swap == nil {
		return r.data[start:end:end]
	}
	if r.scratch == nil {
		r.scratch = make([]byte, r.ub)
	}
	clear(r.scratch[copy(r.scratch, r.data[start:min(end, len(r.data))]):])
	if r.swap != nil {
		r.swap(r.scratch)
	}
	return r.scratch
}

// load makes unit u the cached one.
func (r *unitReader) load(u int) {
	if u != r.cached {
		r.decodeUnits(r.unit, r.unitBytes(u))
		r.cached = u
	}
}

// decode writes the values of elements e, e+stride, ... into dst.
func (r *unitReader) decode(e, stride int, dst []float32) {
	if stride != 1 {
		for i := range dst {
			k := e + i*stride
			r.load(k >> r.shift)
			dst[i] = r.unit[k&r.mask]
		}
		return
	}
	ue := r.mask + 1
	for len(dst) > 0 {
		u, p := e>>r.shift, e&r.mask
		if whole := len(dst) >> r.shift; p == 0 && whole > 0 && r.swap == nil {
			// Whole units straight from storage, as many as lie wholly in it.
			whole = min(whole, (len(r.data)-r.origin)/r.ub-u)
			if whole > 0 {
				start := r.origin + u*r.ub
				r.decodeUnits(dst[:whole*ue], r.data[start:start+whole*r.ub])
				dst, e = dst[whole*ue:], e+whole*ue
				continue
			}
		}
		r.load(u)
		k := copy(dst, r.unit[p:])
		dst, e = dst[k:], e+k
	}
}
