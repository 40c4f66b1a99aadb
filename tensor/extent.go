package tensor

// ByteExtent returns the bytes [lo, hi) of its storage that t's elements
// occupy, gaps between strided rows included: what must be present before
// the tensor is read (a remote file fetches exactly this range). An empty
// tensor has lo == hi.
func (t *Tensor) ByteExtent() (lo, hi int) {
	shape, strides := t.physical()
	// Addresses in the kernels' terms: bytes for plain dtypes (a stride
	// is addrSize bytes), element numbers for packed ones.
	scale := t.addrSize()
	minA, maxA := t.base(), t.base()
	for k, n := range shape {
		if n == 0 {
			return t.offset, t.offset
		}
		step := (n - 1) * strides[k] * scale
		if step < 0 {
			minA += step
		} else {
			maxA += step
		}
	}
	if t.dtype.Packed() {
		ue, ub := t.dtype.UnitElems(), t.dtype.UnitBytes()
		lo = t.offset + floorDiv(minA, ue)*ub
		hi = t.offset + floorDiv(maxA, ue)*ub + ub
		return lo, hi
	}
	return minA, maxA + t.addrSize()
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
