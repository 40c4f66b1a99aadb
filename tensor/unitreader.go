package tensor

import "math/bits"

// unitReader decodes elements of a packed tensor, addressed by element
// number from the unit at origin. Contiguous runs decode whole units
// straight into the destination. Partial units at a run's ends, and every
// element of a strided walk, come from a small set-associative cache of
// decoded units: a walk along a row with a stride decodes each unit once,
// and a walk down a column of q4_k that comes back for the next column
// (a transposed table, a plane across rows) finds the units of the
// last unitCacheSlots rows still decoded instead of decoding 256 values
// for every one it reads.
type unitReader struct {
	data        []byte
	origin      int // byte offset of unit 0
	ub          int // bytes per unit
	shift       uint
	mask        int // UnitElems − 1 (units hold a power of two of elements)
	decodeUnits func(dst []float32, src []byte)
	swap        func(unit []byte) // big-endian block units, or nil

	vals    []float32 // decoded units, slot s at vals[s·UnitElems:]
	setBits uint      // log2 of the number of sets of two slots
	tags    []int     // the unit in each slot, −1 for none
	older   []uint8   // per set of two slots: which one to replace next
	scratch []byte    // a unit's bytes when they must be copied first
}

// unitCacheSlots is the number of decoded units a reader keeps (64 KiB of
// values for 256-element blocks).
const (
	unitCacheShift = 6
	unitCacheSlots = 1 << unitCacheShift
)

// newUnitReader returns a reader of t's elements whose cache holds
// 2^(setBits+1) units: unitCacheShift−1 for the kernels, 0 for a reader that
// reads one element (Float64At), which then allocates one unit's worth
// instead of 64.
func newUnitReader(t *Tensor, setBits uint) *unitReader {
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
		vals:        make([]float32, 2<<setBits*ue),
		tags:        make([]int, 2<<setBits),
		older:       make([]uint8, 1<<setBits),
		setBits:     setBits,
	}
	for i := range r.tags {
		r.tags[i] = -1
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

// unit returns the decoded values of unit u, from the cache or decoded
// into it. The cache is two-way set-associative: a unit may sit in either
// slot of its set, and a miss replaces the one used less recently, so that
// two units of one walk that hash alike do not evict each other in turn.
func (r *unitReader) unit(u int) []float32 {
	// Fibonacci hashing: units a power of two apart (one per row of a
	// column walk) must not all fall into the same few sets.
	set := int(uint64(u) * 0x9e3779b97f4a7c15 >> (64 - r.setBits) & (1<<r.setBits - 1))
	slot := 2 * set
	switch {
	case r.tags[slot] == u:
		r.older[set] = 1
	case r.tags[slot+1] == u:
		slot++
		r.older[set] = 0
	default:
		slot += int(r.older[set])
		r.older[set] ^= 1
		r.decodeUnits(r.slotVals(slot), r.unitBytes(u))
		r.tags[slot] = u
	}
	return r.slotVals(slot)
}

func (r *unitReader) slotVals(slot int) []float32 {
	ue := r.mask + 1
	return r.vals[slot*ue : slot*ue+ue]
}

// decode writes the values of elements e, e+stride, ... into dst.
func (r *unitReader) decode(e, stride int, dst []float32) {
	if stride != 1 {
		cur, vals := -1, []float32(nil)
		for i := range dst {
			k := e + i*stride
			if u := k >> r.shift; u != cur {
				cur, vals = u, r.unit(u)
			}
			dst[i] = vals[k&r.mask]
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
		k := copy(dst, r.unit(u)[p:])
		dst, e = dst[k:], e+k
	}
}
