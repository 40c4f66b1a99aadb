package tensor

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// refNarrowValue decodes a narrow float pattern by each format's own
// definition, written out type by type (OCP 8-bit FP spec, OCP MX spec,
// ml_dtypes), independently of the table-driven decoder under test.
func refNarrowValue(dt DType, b uint8) float64 {
	sgn := 1.0
	switch dt {
	case Float8E8M0FNU:
		if b == 0xff {
			return math.NaN()
		}
		return math.Pow(2, float64(int(b)-127))
	case Float4E2M1FN:
		if b&0x8 != 0 {
			sgn = -1
		}
		return sgn * []float64{0, 0.5, 1, 1.5, 2, 3, 4, 6}[b&7]
	}
	type layout struct {
		e, m, bias int
	}
	lay := map[DType]layout{
		Float8E4M3FN: {4, 3, 7}, Float8E4M3FNUZ: {4, 3, 8}, Float8E5M2: {5, 2, 15}, Float8E5M2FNUZ: {5, 2, 16},
		Float6E2M3FN: {2, 3, 1}, Float6E3M2FN: {3, 2, 3},
	}[dt]
	width := 1 + lay.e + lay.m
	if b>>(width-1)&1 == 1 {
		sgn = -1
	}
	exp := int(b>>lay.m) & (1<<lay.e - 1)
	man := int(b) & (1<<lay.m - 1)
	switch dt {
	case Float8E4M3FN:
		if b&0x7f == 0x7f {
			return math.NaN()
		}
	case Float8E4M3FNUZ, Float8E5M2FNUZ:
		if b == 0x80 {
			return math.NaN()
		}
	case Float8E5M2:
		if exp == 31 {
			if man == 0 {
				return sgn * math.Inf(1)
			}
			return math.NaN()
		}
	}
	if exp == 0 {
		return sgn * float64(man) / float64(int(1)<<lay.m) * math.Pow(2, float64(1-lay.bias))
	}
	return sgn * (1 + float64(man)/float64(int(1)<<lay.m)) * math.Pow(2, float64(exp-lay.bias))
}

var narrowDTypes = []DType{Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Float8E8M0FNU,
	Float4E2M1FN, Float6E2M3FN, Float6E3M2FN}

func narrowPatterns(dt DType) int {
	switch dt {
	case Float4E2M1FN:
		return 16
	case Float6E2M3FN, Float6E3M2FN:
		return 64
	}
	return 256
}

// TestNarrowFloatEveryPattern decodes every bit pattern of every narrow
// float and compares it with the reference formula.
func TestNarrowFloatEveryPattern(t *testing.T) {
	for _, dt := range narrowDTypes {
		for b := range narrowPatterns(dt) {
			got, want := float64(NarrowFloatValue(dt, uint8(b))), refNarrowValue(dt, uint8(b))
			if !sameFloat(got, want) {
				t.Errorf("%s 0x%02x = %v, want %v", dt, b, got, want)
			}
		}
	}
}

// TestNarrowFloatKnownValues checks landmarks from the OCP 8-bit FP and MX
// specifications and ml_dtypes' finfo.
func TestNarrowFloatKnownValues(t *testing.T) {
	cases := []struct {
		dt   DType
		b    uint8
		want float64
	}{
		{Float8E4M3FN, 0x7e, 448}, {Float8E4M3FN, 0x01, 0x1p-9}, {Float8E4M3FN, 0x08, 0x1p-6},
		{Float8E4M3FN, 0x38, 1}, {Float8E4M3FN, 0xfe, -448}, {Float8E4M3FN, 0x80, math.Copysign(0, -1)},
		{Float8E4M3FNUZ, 0x7f, 240}, {Float8E4M3FNUZ, 0x01, 0x1p-10}, {Float8E4M3FNUZ, 0x40, 1},
		{Float8E5M2, 0x7b, 57344}, {Float8E5M2, 0x01, 0x1p-16}, {Float8E5M2, 0x3c, 1},
		{Float8E5M2, 0x7c, math.Inf(1)}, {Float8E5M2, 0xfc, math.Inf(-1)},
		{Float8E5M2FNUZ, 0x7f, 57344}, {Float8E5M2FNUZ, 0x01, 0x1p-17}, {Float8E5M2FNUZ, 0x40, 1},
		{Float8E8M0FNU, 0x7f, 1}, {Float8E8M0FNU, 0x00, 0x1p-127}, {Float8E8M0FNU, 0xfe, 0x1p127},
		{Float4E2M1FN, 0x7, 6}, {Float4E2M1FN, 0x1, 0.5}, {Float4E2M1FN, 0xf, -6},
		{Float6E2M3FN, 0x1f, 7.5}, {Float6E2M3FN, 0x01, 0.125}, {Float6E2M3FN, 0x08, 1},
		{Float6E3M2FN, 0x1f, 28}, {Float6E3M2FN, 0x01, 0.0625}, {Float6E3M2FN, 0x0c, 1},
	}
	for _, c := range cases {
		if got := float64(NarrowFloatValue(c.dt, c.b)); !sameFloat(got, c.want) {
			t.Errorf("%s 0x%02x = %v, want %v", c.dt, c.b, got, c.want)
		}
	}
	nans := map[DType][]uint8{
		Float8E4M3FN: {0x7f, 0xff}, Float8E4M3FNUZ: {0x80}, Float8E5M2: {0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff},
		Float8E5M2FNUZ: {0x80}, Float8E8M0FNU: {0xff},
	}
	for _, dt := range narrowDTypes {
		count := 0
		for b := range narrowPatterns(dt) {
			if v := NarrowFloatValue(dt, uint8(b)); v != v {
				count++
			}
		}
		if count != len(nans[dt]) {
			t.Errorf("%s has %d NaN patterns, want %d", dt, count, len(nans[dt]))
		}
	}
}

// refNarrowSorted lists dt's finite non-negative values with their
// patterns, ascending, from the reference formula.
func refNarrowSorted(dt DType) (vals []float64, pats []uint8) {
	for b := range narrowPatterns(dt) {
		v := refNarrowValue(dt, uint8(b))
		if v != v || math.IsInf(v, 0) || math.Signbit(v) {
			continue
		}
		vals = append(vals, v)
		pats = append(pats, uint8(b))
	}
	// Patterns of non-negative values ascend with their values.
	return vals, pats
}

// TestFloat32ToNarrowRounding checks the encoders on every value, every
// midpoint between neighbours (ties to the even pattern) and points just
// beside them, and the overflow, NaN and sign rules of each format.
func TestFloat32ToNarrowRounding(t *testing.T) {
	for _, dt := range narrowDTypes {
		vals, pats := refNarrowSorted(dt)
		sign := uint8(1) << 7
		switch dt {
		case Float4E2M1FN:
			sign = 0x8
		case Float6E2M3FN, Float6E3M2FN:
			sign = 0x20
		case Float8E8M0FNU:
			sign = 0
		}
		negOK := sign != 0
		enc := func(x float64, sat bool) uint8 { return Float32ToNarrow(dt, float32(x), sat) }
		for i, v := range vals {
			for _, sat := range []bool{false, true} {
				if got := enc(v, sat); got != pats[i] {
					t.Fatalf("%s(%v) = 0x%02x, want 0x%02x", dt, v, got, pats[i])
				}
				if negOK && v != 0 {
					if got := enc(-v, sat); got != pats[i]|sign {
						t.Fatalf("%s(%v) = 0x%02x, want 0x%02x", dt, -v, got, pats[i]|sign)
					}
				}
			}
			if i == 0 {
				continue
			}
			lo, hi := vals[i-1], v
			mid := lo + (hi-lo)/2
			even := pats[i-1]
			if even&1 != 0 {
				even = pats[i]
			}
			if dt == Float8E8M0FNU {
				// One-value "mantissa": the tie goes to the even exponent field.
				even = pats[i-1]
				if even&1 != 0 {
					even = pats[i]
				}
			}
			if got := enc(mid, false); got != even {
				t.Fatalf("%s(midpoint %v of %v, %v) = 0x%02x, want 0x%02x", dt, mid, lo, hi, got, even)
			}
			below := float64(math.Nextafter32(float32(mid), float32(math.Inf(-1))))
			above := float64(math.Nextafter32(float32(mid), float32(math.Inf(1))))
			if got := enc(below, false); got != pats[i-1] {
				t.Fatalf("%s(%v, just below the midpoint of %v and %v) = 0x%02x", dt, below, lo, hi, got)
			}
			if got := enc(above, false); got != pats[i] {
				t.Fatalf("%s(%v, just above the midpoint of %v and %v) = 0x%02x", dt, above, lo, hi, got)
			}
		}
		maxV, maxP := vals[len(vals)-1], pats[len(pats)-1]
		huge := maxV * 4
		isNaN := func(b uint8) bool { v := NarrowFloatValue(dt, b); return v != v }
		switch dt {
		case Float8E5M2:
			if got := enc(huge, false); got != 0x7c {
				t.Errorf("%s(%v) = 0x%02x, want +Inf", dt, huge, got)
			}
			if got := enc(math.Inf(-1), false); got != 0xfc {
				t.Errorf("%s(-Inf) = 0x%02x, want -Inf", dt, got)
			}
		case Float4E2M1FN, Float6E2M3FN, Float6E3M2FN:
			if got := enc(huge, false); got != maxP {
				t.Errorf("%s(%v) = 0x%02x, want max", dt, huge, got)
			}
			if got := enc(math.NaN(), false); got != maxP {
				t.Errorf("%s(NaN) = 0x%02x, want max (ONNX)", dt, got)
			}
		default:
			if got := enc(huge, false); !isNaN(got) {
				t.Errorf("%s(%v) = 0x%02x, want NaN", dt, huge, got)
			}
		}
		if got := enc(huge, true); got != maxP {
			t.Errorf("saturating %s(%v) = 0x%02x, want 0x%02x", dt, huge, got, maxP)
		}
		if got := enc(math.Inf(1), true); got != maxP {
			t.Errorf("saturating %s(+Inf) = 0x%02x, want 0x%02x", dt, got, maxP)
		}
		if negOK {
			if got := enc(math.Inf(-1), true); got != maxP|sign {
				t.Errorf("saturating %s(-Inf) = 0x%02x, want 0x%02x", dt, got, maxP|sign)
			}
		}
		if minifloats[dt].nan != nanNone && !isNaN(enc(math.NaN(), true)) {
			t.Errorf("%s(NaN) is not NaN", dt)
		}
	}
	// Signs and zeros.
	negZero := math.Copysign(0, -1)
	for dt, want := range map[DType]uint8{Float8E4M3FN: 0x80, Float8E5M2: 0x80, Float8E4M3FNUZ: 0, Float8E5M2FNUZ: 0,
		Float4E2M1FN: 0x8, Float6E2M3FN: 0x20, Float8E8M0FNU: 0} {
		if got := Float32ToNarrow(dt, float32(negZero), false); got != want {
			t.Errorf("%s(-0) = 0x%02x, want 0x%02x", dt, got, want)
		}
	}
	if got := Float32ToNarrow(Float8E8M0FNU, -2, true); got != 0xff {
		t.Errorf("float8_e8m0fnu(-2) = 0x%02x, want NaN", got)
	}
	if got := Float32ToNarrow(Float8E8M0FNU, 1e-45, false); got != 0 {
		t.Errorf("float8_e8m0fnu(1e-45) = 0x%02x, want 2^-127", got)
	}
	// e4m3fn: 464 is the tie between 448 (even) and the NaN pattern's 480.
	if got := Float32ToNarrow(Float8E4M3FN, 464, false); got != 0x7e {
		t.Errorf("float8_e4m3fn(464) = 0x%02x, want 448", got)
	}
	if got := Float32ToNarrow(Float8E4M3FN, 465, false); got != 0x7f {
		t.Errorf("float8_e4m3fn(465) = 0x%02x, want NaN", got)
	}
}

// TestNarrowFloatElementString: every pattern prints as the shortest text
// that reads back to it, through a float8 tensor.
func TestNarrowFloatElementString(t *testing.T) {
	for _, dt := range narrowDTypes[:5] {
		b := make([]byte, 256)
		for i := range b {
			b[i] = byte(i)
		}
		x, err := FromBytes(b, dt, []int{256})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 256 {
			s, err := x.ElementString([]int{i})
			if err != nil {
				t.Fatal(err)
			}
			want := refNarrowValue(dt, uint8(i))
			if !readsBackAs(dt, s, want) && !(math.IsInf(want, 0) && s == strconv.FormatFloat(want, 'g', -1, 64)) {
				t.Errorf("%s 0x%02x: %q does not read back as %v", dt, i, s, want)
			}
			// No text with fewer significant digits reads back.
			if want == want && !math.IsInf(want, 0) && want != 0 {
				parsed, _ := strconv.ParseFloat(s, 64)
				e := strconv.FormatFloat(parsed, 'e', -1, 64)
				digits := len(strings.NewReplacer("-", "", ".", "").Replace(e[:strings.IndexByte(e, 'e')]))
				if digits > 1 {
					short := strconv.FormatFloat(want, 'e', digits-2, 64)
					if readsBackAs(dt, short, want) {
						t.Errorf("%s 0x%02x: %q, but %q reads back too", dt, i, s, short)
					}
				}
			}
		}
	}
	if s := FormatShape(Float8E4M3FN, []int{2}); s != "float8_e4m3fn[2]" {
		t.Error(s)
	}
}

func TestPackSubByteRoundTrips(t *testing.T) {
	vals := []float32{-9, -8, -2.5, -1.5, -0.5, 0, 0.5, 1.5, 2.5, 3, 7, 8, 16, float32(math.NaN()), 5.25, -0.3}
	for _, dt := range []DType{Int4, Uint4, Int2, Uint2, Float4E2M1FN, Float6E2M3FN, Float6E3M2FN} {
		b, err := PackSubByte(dt, vals)
		if err != nil {
			t.Fatal(err)
		}
		x, err := FromBytes(b, dt, []int{len(vals)})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			got, _ := x.Float64At([]int{i})
			var want float64
			switch dt {
			case Int4, Uint4, Int2, Uint2:
				lo, hi := map[DType][2]float64{Int4: {-8, 7}, Uint4: {0, 15}, Int2: {-2, 1}, Uint2: {0, 3}}[dt][0],
					map[DType][2]float64{Int4: {-8, 7}, Uint4: {0, 15}, Int2: {-2, 1}, Uint2: {0, 3}}[dt][1]
				want = min(max(math.RoundToEven(float64(v)), lo), hi) + 0 // no −0
				if v != v {
					want = 0
				}
			default:
				want = float64(NarrowFloatValue(dt, Float32ToNarrow(dt, v, true)))
			}
			if !sameFloat(got, want) {
				t.Errorf("%s: element %d (%v) = %v, want %v", dt, i, v, got, want)
			}
		}
	}
	if _, err := PackSubByte(Float32, vals); err == nil {
		t.Error("PackSubByte(float32): no error")
	}
}
