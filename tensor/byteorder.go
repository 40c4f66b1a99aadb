package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Big-endian tensors (NumPy's '>f4', GGUF files written for big-endian
// hosts) are views like any other: the kernels swap each value as they
// decode it, so that opening such a file never converts it up front.

// BigEndian returns a view of the same elements whose multi-byte values are
// stored most significant byte first. Single-byte and sub-byte dtypes have
// no byte order (nor have opaque ones), so for them it is t itself; a block-quantised dtype needs
// a unit swapper registered by its package, and fails without one.
func (t *Tensor) BigEndian() (*Tensor, error) {
	if t.bigEndian {
		return t, nil
	}
	switch {
	case t.dtype.BlockQuantized():
		if unitSwappers[t.dtype] == nil {
			return nil, fmt.Errorf("tensor: %s has no known big-endian layout", t.dtype)
		}
	case t.dtype.Packed(), t.dtype.IsVoid(), t.dtype.Size() <= 1 && t.magnitude == Invalid:
		return t, nil
	}
	v := *t
	v.bigEndian = true
	return &v, nil
}

// IsBigEndian reports whether t's multi-byte values are stored big-endian
// (see BigEndian).
func (t *Tensor) IsBigEndian() bool { return t.bigEndian }

// unitSwappers holds, for block-quantised dtypes whose files exist in both
// byte orders, the function that turns one big-endian unit into the
// little-endian unit the decoder expects (swapping its fp16 scales, say),
// in place. The package that knows the block layout sets the entry in an
// init function, beside its unitDecoders entry.
var unitSwappers [numDTypes]func(unit []byte)

// decodeSwapped32 is decode32 for big-endian storage.
func decodeSwapped32(dt DType, data []byte, off, stride int, dst []float32) {
	be := binary.BigEndian
	switch dt {
	case Float32:
		for i := range dst {
			dst[i] = math.Float32frombits(be.Uint32(data[off+i*stride:]))
		}
	case Float16:
		tab := float16Table()
		for i := range dst {
			dst[i] = tab[be.Uint16(data[off+i*stride:])]
		}
	case BFloat16:
		for i := range dst {
			dst[i] = math.Float32frombits(uint32(be.Uint16(data[off+i*stride:])) << 16)
		}
	case Int16:
		for i := range dst {
			dst[i] = float32(int16(be.Uint16(data[off+i*stride:])))
		}
	case Uint16:
		for i := range dst {
			dst[i] = float32(be.Uint16(data[off+i*stride:]))
		}
	default:
		decode32(dt, data, off, stride, dst) // single bytes
	}
}

// decodeSwapped64 is decode64 for big-endian storage.
func decodeSwapped64(dt DType, data []byte, off, stride int, dst []float64) {
	be := binary.BigEndian
	switch dt {
	case Float64:
		for i := range dst {
			dst[i] = math.Float64frombits(be.Uint64(data[off+i*stride:]))
		}
	case Int32:
		for i := range dst {
			dst[i] = float64(int32(be.Uint32(data[off+i*stride:])))
		}
	case Uint32:
		for i := range dst {
			dst[i] = float64(be.Uint32(data[off+i*stride:]))
		}
	case Int64:
		for i := range dst {
			dst[i] = float64(int64(be.Uint64(data[off+i*stride:])))
		}
	case Uint64:
		for i := range dst {
			dst[i] = float64(be.Uint64(data[off+i*stride:]))
		}
	case Datetime64, Timedelta64:
		for i := range dst {
			dst[i] = timeValue(int64(be.Uint64(data[off+i*stride:])))
		}
	default:
		panic("tensor: decodeSwapped64 of " + dt.String())
	}
}

// swapElements reverses the bytes of each size-byte element of b in place
// (each half separately for complex numbers, whose parts are swapped one by
// one).
func swapElements(b []byte, dt DType) {
	size := dt.Size()
	if dt.IsComplex() {
		size /= 2
	}
	if size <= 1 {
		return
	}
	for i := 0; i+size <= len(b); i += size {
		e := b[i : i+size]
		for j, k := 0, size-1; j < k; j, k = j+1, k-1 {
			e[j], e[k] = e[k], e[j]
		}
	}
}
