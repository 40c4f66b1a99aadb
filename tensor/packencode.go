package tensor

import (
	"fmt"
	"math"
)

// PackSubByte encodes vals as densely packed elements of sub-byte dtype dt
// (int4, uint4, int2, uint2, float4_e2m1fn, float6_e2m3fn, float6_e3m2fn),
// in the bit order the decoders read (see subbyte.go), into
// StorageBytes(dt, len(vals)) bytes, unused high bits zero. Integers are
// rounded to nearest, ties to even, and clamped to the type's range (NaN
// becomes 0); floats go through Float32ToNarrow, which saturates for these
// types. Writers use it to produce test files and round trips.
func PackSubByte(dt DType, vals []float32) ([]byte, error) {
	if !dt.Packed() || dt.BlockQuantized() {
		return nil, fmt.Errorf("PackSubByte: %s is not a sub-byte dtype", dt)
	}
	n, err := StorageBytes(dt, int64(len(vals)))
	if err != nil {
		return nil, err
	}
	out := make([]byte, n)
	w := dt.ElementBits()
	for i, v := range vals {
		code := subByteCode(dt, v) & (1<<w - 1)
		bit := i * w
		// A 6-bit code may straddle two bytes.
		out[bit/8] |= byte(code << (bit % 8))
		if rest := bit%8 + w - 8; rest > 0 {
			out[bit/8+1] |= byte(code >> (w - rest))
		}
	}
	return out, nil
}

// subByteCode is the w-bit pattern of v in dt (not yet masked).
func subByteCode(dt DType, v float32) uint {
	lo, hi := 0.0, 0.0
	switch dt {
	case Int4:
		lo, hi = -8, 7
	case Uint4:
		lo, hi = 0, 15
	case Int2:
		lo, hi = -2, 1
	case Uint2:
		lo, hi = 0, 3
	default:
		return uint(Float32ToNarrow(dt, v, true))
	}
	if v != v {
		return 0
	}
	r := min(max(math.RoundToEven(float64(v)), lo), hi)
	return uint(int(r))
}
