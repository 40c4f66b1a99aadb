package tensor

import (
	"math"
)

// Narrow floats: the five float8 types, float6_e2m3fn, float6_e3m2fn and
// float4_e2m1fn, as ml_dtypes and the OCP 8-bit and MX specifications
// define them. Each is described by one minifloat, from which both the
// decoding tables and the encoder follow.

// narrowNaN says how a format spells NaN.
type narrowNaN uint8

const (
	nanNone    narrowNaN = iota // no NaN (float4, float6)
	nanIEEE                     // all-ones exponent: zero mantissa ±Inf, else NaN (e5m2)
	nanAllOnes                  // only the all-ones pattern of exponent and mantissa (e4m3fn, e8m0fnu)
	nanNegZero                  // only 0x80, the pattern of −0 (the fnuz types)
)

type minifloat struct {
	ebits, mbits uint
	bias         int
	unsigned     bool // no sign bit (e8m0fnu)
	nan          narrowNaN
	subnormals   bool // exponent field 0 holds subnormals (all but e8m0fnu, whose field 0 is 2^-127)
	max          float64
}

var minifloats = func() [numDTypes]*minifloat {
	var f [numDTypes]*minifloat
	f[Float8E4M3FN] = &minifloat{ebits: 4, mbits: 3, bias: 7, nan: nanAllOnes, subnormals: true}
	f[Float8E4M3FNUZ] = &minifloat{ebits: 4, mbits: 3, bias: 8, nan: nanNegZero, subnormals: true}
	f[Float8E5M2] = &minifloat{ebits: 5, mbits: 2, bias: 15, nan: nanIEEE, subnormals: true}
	f[Float8E5M2FNUZ] = &minifloat{ebits: 5, mbits: 2, bias: 16, nan: nanNegZero, subnormals: true}
	f[Float8E8M0FNU] = &minifloat{ebits: 8, mbits: 0, bias: 127, unsigned: true, nan: nanAllOnes}
	f[Float4E2M1FN] = &minifloat{ebits: 2, mbits: 1, bias: 1, subnormals: true}
	f[Float6E2M3FN] = &minifloat{ebits: 2, mbits: 3, bias: 1, subnormals: true}
	f[Float6E3M2FN] = &minifloat{ebits: 3, mbits: 2, bias: 3, subnormals: true}
	for _, nf := range f {
		if nf == nil {
			continue
		}
		for b := range nf.patterns() {
			if v := nf.decode(uint8(b)); !math.IsInf(v, 0) && v == v {
				nf.max = max(nf.max, v)
			}
		}
	}
	return f
}()

// narrowTables maps every bit pattern of each narrow float to its float32
// value (every value is exactly a float32); the decode loops look values up.
var narrowTables = func() [numDTypes]*[256]float32 {
	var t [numDTypes]*[256]float32
	for dt, nf := range minifloats {
		if nf == nil {
			continue
		}
		t[dt] = new([256]float32)
		for b := range nf.patterns() {
			t[dt][b] = float32(nf.decode(uint8(b)))
		}
	}
	return t
}()

func float8Table(dt DType) *[256]float32 { return narrowTables[dt] }

// width is the number of bits of a pattern; patterns is 2^width.
func (f *minifloat) width() uint {
	w := f.ebits + f.mbits
	if !f.unsigned {
		w++
	}
	return w
}

func (f *minifloat) patterns() int { return 1 << f.width() }

func (f *minifloat) signBit() uint8 {
	if f.unsigned {
		return 0
	}
	return 1 << (f.ebits + f.mbits)
}

// decode returns the exact value of pattern b.
func (f *minifloat) decode(b uint8) float64 {
	neg := b&f.signBit() != 0
	eMax, mMax := uint8(1)<<f.ebits-1, uint8(1)<<f.mbits-1
	e, m := (b>>f.mbits)&eMax, b&mMax
	switch f.nan {
	case nanIEEE:
		if e == eMax {
			if m != 0 {
				return math.NaN()
			}
			return math.Copysign(math.Inf(1), sign(neg))
		}
	case nanAllOnes:
		if e == eMax && m == mMax {
			return math.NaN()
		}
	case nanNegZero:
		if neg && e == 0 && m == 0 {
			return math.NaN()
		}
	}
	var v float64
	if e == 0 && f.subnormals {
		v = math.Ldexp(float64(m), 1-f.bias-int(f.mbits))
	} else {
		v = math.Ldexp(float64(uint(m)|1<<f.mbits), int(e)-f.bias-int(f.mbits))
	}
	return math.Copysign(v, sign(neg))
}

func sign(neg bool) float64 {
	if neg {
		return -1
	}
	return 1
}

// nanBits is the pattern a NaN converts to (a quiet NaN of the input's
// sign where the format has a sign).
func (f *minifloat) nanBits(neg bool) uint8 {
	s := f.signBit()
	if !neg {
		s = 0
	}
	switch f.nan {
	case nanIEEE:
		return s | (1<<f.ebits-1)<<f.mbits | 1<<(f.mbits-1)
	case nanAllOnes:
		return s | (1<<(f.ebits+f.mbits) - 1)
	case nanNegZero:
		return 0x80
	}
	return f.maxBits(false) // no NaN: ONNX casts NaN to the largest value
}

func (f *minifloat) maxBits(neg bool) uint8 {
	b, _ := f.magnitudeBits(f.max)
	if neg {
		b |= f.signBit()
	}
	return b
}

// magnitudeBits is the pattern of representable magnitude v ≥ 0; ok is
// false when there is none (v above the range, or 0 for e8m0fnu).
func (f *minifloat) magnitudeBits(v float64) (uint8, bool) {
	if v > f.max {
		return 0, false
	}
	if v == 0 {
		return 0, f.subnormals
	}
	fr, exp := math.Frexp(v)
	e := exp - 1 // v = 2fr · 2^e, 2fr in [1, 2)
	emin := 1 - f.bias
	if !f.subnormals {
		emin = -f.bias
	}
	if e < emin {
		// A subnormal: the mantissa counts units of 2^(emin−mbits).
		return uint8(math.Ldexp(v, int(f.mbits)-emin)), true
	}
	m := uint8(math.Ldexp(2*fr, int(f.mbits))) &^ (1 << f.mbits)
	return uint8(e+f.bias)<<f.mbits | m, true
}

// encode rounds x to the nearest pattern, ties to the even pattern (which
// for a nonzero mantissa width is the even mantissa, as IEEE rounds).
// Values beyond the range (after rounding) and infinities become the
// largest finite value of their sign with saturate, as ONNX's Cast does by
// default; without it they become ±Inf where the format has infinities and
// NaN where it has not, as ml_dtypes converts. Formats without NaN (float4,
// float6) always saturate and turn NaN into the largest value, as ONNX
// specifies. e8m0fnu has neither sign nor zero: negative numbers are NaN,
// and 0 and tiny values become its smallest value, 2^-127.
func (f *minifloat) encode(x float64, saturate bool) uint8 {
	neg := math.Signbit(x)
	if x != x {
		return f.nanBits(neg)
	}
	if f.unsigned && neg && x != 0 {
		return f.nanBits(false)
	}
	saturate = saturate || f.nan == nanNone
	a := math.Abs(x)
	overflow := func() uint8 {
		switch {
		case saturate:
			return f.maxBits(neg)
		case f.nan == nanIEEE:
			return f.signBitIf(neg) | (1<<f.ebits-1)<<f.mbits
		}
		return f.nanBits(neg)
	}
	if math.IsInf(a, 0) {
		return overflow()
	}
	b, ok := f.round(a)
	if !ok {
		return overflow()
	}
	if b == 0 && neg && f.nan == nanNegZero {
		return 0 // no −0: 0x80 is NaN
	}
	return f.signBitIf(neg) | b
}

// round returns the pattern of the representable magnitude nearest to
// finite a ≥ 0, ties to the even pattern; ok is false when a rounds beyond
// the largest value.
func (f *minifloat) round(a float64) (b uint8, ok bool) {
	if f.unsigned && a == 0 {
		return 0, true // 2^-127, the nearest value to 0
	}
	_, exp := math.Frexp(a)
	emin := 1 - f.bias
	if !f.subnormals {
		emin = -f.bias
	}
	q := max(exp-1, emin) - int(f.mbits) // the quantum at a
	n := math.Ldexp(a, -q)
	lo := math.Floor(n)
	loBits, loOK := f.magnitudeBits(math.Ldexp(lo, q))
	hiBits, hiOK := f.magnitudeBits(math.Ldexp(lo+1, q))
	switch frac := n - lo; {
	case !loOK && lo == 0: // e8m0fnu below its smallest value
		return hiBits, hiOK
	case frac < 0.5 || (frac == 0.5 && loBits&1 == 0):
		return loBits, loOK
	}
	return hiBits, hiOK
}

func (f *minifloat) signBitIf(neg bool) uint8 {
	if neg {
		return f.signBit()
	}
	return 0
}

// NarrowFloatValue returns the value of bit pattern b of narrow float type
// dt (a float8, float6 or float4 type; b in the low 8, 6 or 4 bits).
// Every such value is exactly a float32. It returns NaN for other dtypes.
func NarrowFloatValue(dt DType, b uint8) float32 {
	if int(dt) >= len(narrowTables) || narrowTables[dt] == nil {
		return float32(math.NaN())
	}
	return narrowTables[dt][b&uint8(minifloats[dt].patterns()-1)]
}

// Float32ToNarrow encodes f as narrow float type dt, rounding to nearest,
// ties to even. With saturate, values beyond the range and infinities
// become the largest finite value of their sign (ONNX Cast's default);
// without, ±Inf where dt has infinities (float8_e5m2) and NaN elsewhere
// (ml_dtypes' conversion). float4 and float6 have no NaN or Inf and always
// saturate (NaN becomes the largest value, as ONNX specifies);
// float8_e8m0fnu makes negative numbers NaN and 0 its smallest value
// 2^-127. It returns 0 for dtypes that are not narrow floats.
func Float32ToNarrow(dt DType, f float32, saturate bool) uint8 {
	if int(dt) >= len(minifloats) || minifloats[dt] == nil {
		return 0
	}
	return minifloats[dt].encode(float64(f), saturate)
}

// formatNarrow formats pattern b of dt as the shortest decimal that rounds
// back to the same pattern.
func formatNarrow(dt DType, b uint8) string {
	f := minifloats[dt]
	return formatShortest(f.decode(b), func(x float64) bool {
		r, ok := f.round(math.Abs(x))
		return ok && f.encode(x, false) == b && (r == b&^f.signBit())
	})
}
