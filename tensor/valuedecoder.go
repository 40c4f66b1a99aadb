package tensor

// valueDecoder turns the elements of one tensor into values for the typed
// loops. Addresses and strides are in the tensor's address units (see
// Tensor.addrSize): bytes for byte-addressable dtypes, element numbers for
// packed ones. Every kernel and accessor reads through one, so that packed
// units, byte order and computed magnitudes are handled in one place and
// never by converting a whole tensor up front.
//
// A decoder of a packed tensor caches the unit it decoded last: give each
// goroutine its own.
type valueDecoder struct {
	kind  kernelKind
	dec32 func(addr, stride int, dst []float32)
	dec64 func(addr, stride int, dst []float64)
	// inPlace32 returns the n float32 values at addr (stride 4) as a slice
	// of the storage itself, or nil when that is impossible; nil when the
	// tensor's values are never stored as plain float32 (and likewise
	// inPlace64).
	inPlace32 func(addr, n int) []float32
	inPlace64 func(addr, n int) []float64
}

// kernel says which typed loop t's values go through.
func (t *Tensor) kernel() kernelKind {
	switch t.magnitude {
	case Complex64:
		return kind32
	case Complex128:
		return kind64
	}
	return kernelOf(t.dtype)
}

// newValueDecoder returns a decoder for t, whose kernel must not be
// kindNone.
func newValueDecoder(t *Tensor) *valueDecoder { return newValueDecoderCaching(t, unitCacheShift-1) }

// newValueDecoderCaching is newValueDecoder with a packed unit cache of
// 2^(setBits+1) units.
func newValueDecoderCaching(t *Tensor, setBits uint) *valueDecoder {
	d := &valueDecoder{kind: t.kernel()}
	data, dt := t.storage.data, t.dtype
	swapped := t.bigEndian
	switch {
	case t.magnitude == Complex64:
		d.dec32 = func(addr, stride int, dst []float32) { magnitude64(data, addr, stride, swapped, dst) }
	case t.magnitude == Complex128:
		d.dec64 = func(addr, stride int, dst []float64) { magnitude128(data, addr, stride, swapped, dst) }
	case dt.Packed():
		d.dec32 = newUnitReader(t, setBits).decode
	case swapped && dt.Size() > 1:
		if d.kind == kind32 {
			d.dec32 = func(addr, stride int, dst []float32) { decodeSwapped32(dt, data, addr, stride, dst) }
		} else {
			d.dec64 = func(addr, stride int, dst []float64) { decodeSwapped64(dt, data, addr, stride, dst) }
		}
	case d.kind == kind32:
		d.dec32 = func(addr, stride int, dst []float32) { decode32(dt, data, addr, stride, dst) }
		if dt == Float32 {
			d.inPlace32 = func(addr, n int) []float32 { return inPlaceF32(data, addr, n) }
		}
	default:
		d.dec64 = func(addr, stride int, dst []float64) { decode64(dt, data, addr, stride, dst) }
		if dt == Float64 {
			d.inPlace64 = func(addr, n int) []float64 { return inPlaceF64(data, addr, n) }
		}
	}
	return d
}

// one returns the value at addr.
func (d *valueDecoder) one(addr int) float64 {
	if d.kind == kind32 {
		var v [1]float32
		d.dec32(addr, 0, v[:])
		return float64(v[0])
	}
	var v [1]float64
	d.dec64(addr, 0, v[:])
	return v[0]
}
