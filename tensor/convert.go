package tensor

import (
	"math"
	"sync"

	"github.com/x448/float16"
)

// Conversions between float32 and the 16-bit float formats. All of them are
// exact where the value fits and round to nearest, ties to even, where it
// does not. NaNs keep their sign and payload bits (and whether they are
// signalling), so that float16 → float32 → float16 returns the original bits
// for all 65536 inputs; the same holds for bfloat16.

// Float16ToFloat32 widens an IEEE 754 binary16 value. Every float16 value,
// subnormals and signed zeros included, is exactly representable in float32.
func Float16ToFloat32(h uint16) float32 {
	if h&0x7c00 == 0x7c00 && h&0x03ff != 0 {
		// float16.Float32 sets the quiet bit; keeping the payload as-is
		// makes the conversion a bijection onto its image.
		return math.Float32frombits(uint32(h&0x8000)<<16 | 0x7f800000 | uint32(h&0x03ff)<<13)
	}
	return float16.Frombits(h).Float32()
}

// Float32ToFloat16 narrows to binary16, rounding to nearest even; values
// beyond the float16 range become ±Inf, tiny values become subnormals or ±0.
// A NaN keeps its sign and the top 10 payload bits; if those are all zero
// the lowest payload bit is set so that the result stays a NaN.
func Float32ToFloat16(f float32) uint16 {
	if f != f {
		h, _ := float16.FromNaN32ps(f)
		return h.Bits()
	}
	return float16.Fromfloat32(f).Bits()
}

// BFloat16ToFloat32 widens a bfloat16 value: bfloat16 is the top half of a
// float32, so this is exact for every input.
func BFloat16ToFloat32(b uint16) float32 {
	return math.Float32frombits(uint32(b) << 16)
}

// Float32ToBFloat16 narrows to bfloat16, rounding to nearest even (not
// truncating). A NaN keeps its sign and top 7 payload bits, with the lowest
// payload bit set if they are all zero.
func Float32ToBFloat16(f float32) uint16 {
	u := math.Float32bits(f)
	if u&0x7f800000 == 0x7f800000 && u&0x007fffff != 0 {
		b := uint16(u >> 16)
		if b&0x007f == 0 {
			b |= 1
		}
		return b
	}
	// Adding 0x7fff plus the lowest kept bit rounds half to even; a carry
	// out of the mantissa correctly bumps the exponent (up to ±Inf).
	return uint16((u + 0x7fff + (u>>16)&1) >> 16)
}

// float64ToFloat16 and float64ToBFloat16 round a float64 directly (going
// through float32 first would round twice and can be off by one ulp).
func float64ToFloat16(x float64) uint16 {
	if x != x {
		return Float32ToFloat16(float32(x))
	}
	return uint16(roundFloat64(x, 5, 10))
}

func float64ToBFloat16(x float64) uint16 {
	if x != x {
		return Float32ToBFloat16(float32(x))
	}
	return uint16(roundFloat64(x, 8, 7))
}

// roundFloat64 rounds a non-NaN x to the IEEE binary format with ebits
// exponent bits and mbits stored mantissa bits (ties to even) and returns
// its bit pattern.
func roundFloat64(x float64, ebits, mbits uint) uint64 {
	bits := math.Float64bits(x)
	sign := bits >> 63 << (ebits + mbits)
	bias := int(1)<<(ebits-1) - 1
	infBits := (uint64(1)<<ebits - 1) << mbits
	exp := int(bits>>52) & 0x7ff
	frac := bits & (1<<52 - 1)
	if exp == 0x7ff {
		return sign | infBits
	}
	if exp == 0 {
		// float64 subnormals are far below the smallest subnormal of
		// either target format.
		return sign
	}
	e := exp - 1023
	m := frac | 1<<52
	emin := 1 - bias
	shift := 52 - int(mbits)
	if e < emin {
		shift += emin - e
	}
	if shift >= 64 {
		return sign
	}
	q := m >> uint(shift)
	rem := m & (1<<uint(shift) - 1)
	half := uint64(1) << uint(shift-1)
	if rem > half || (rem == half && q&1 == 1) {
		q++
	}
	var r uint64
	if e < emin {
		// q may have rounded up to 1<<mbits: that is the smallest normal,
		// which is exactly its bit pattern.
		r = q
	} else {
		// q carries the implicit bit, which adds one to the exponent field;
		// a mantissa overflow carries into the exponent the same way.
		r = uint64(e+bias-1)<<mbits + q
	}
	if r >= infBits {
		r = infBits
	}
	return sign | r
}

// float16Table maps every float16 bit pattern to its float32 bits; the
// stats and histogram loops look values up rather than decode them.
var float16Table = sync.OnceValue(func() *[65536]float32 {
	t := new([65536]float32)
	for i := range t {
		t[i] = Float16ToFloat32(uint16(i))
	}
	return t
})
