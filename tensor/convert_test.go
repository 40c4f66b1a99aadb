package tensor

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"
)

// narrowFormat describes a 16-bit float format for the reference rounding
// used by these tests: all finite non-negative values, sorted, computed by
// the widening conversion (itself checked against the IEEE formula).
type narrowFormat struct {
	name   string
	widen  func(uint16) float32
	values []float64 // finite values ≥ 0 by bit pattern 0..maxBits
	next   float64   // the value one ulp above the largest finite
}

func newNarrowFormat(name string, widen func(uint16) float32, maxBits uint16, next float64) *narrowFormat {
	f := &narrowFormat{name: name, widen: widen, next: next}
	for b := 0; b <= int(maxBits); b++ {
		f.values = append(f.values, float64(widen(uint16(b))))
	}
	return f
}

var (
	f16Format  = newNarrowFormat("float16", Float16ToFloat32, 0x7bff, 65536)
	bf16Format = newNarrowFormat("bfloat16", BFloat16ToFloat32, 0x7f7f, 0x1p128)
)

// round is the reference: nearest representable value, ties to the even
// bit pattern, beyond the largest finite value's half-ulp to infinity.
func (f *narrowFormat) round(x float64) uint16 {
	if x != x {
		panic("round of NaN")
	}
	sign := uint16(0)
	if math.Signbit(x) {
		sign = 0x8000
		x = -x
	}
	infBits := uint16(len(f.values)) // the bit pattern after the largest finite is Inf
	i := sort.SearchFloat64s(f.values, x)
	// values[i-1] < x ≤ values[i] (or i == len: x beyond the largest finite)
	if i < len(f.values) && f.values[i] == x {
		return sign | uint16(i)
	}
	lo := i - 1
	loV := f.values[lo]
	hiV, hiBits := f.next, infBits
	if i < len(f.values) {
		hiV, hiBits = f.values[i], uint16(i)
	}
	if x > hiV {
		return sign | infBits
	}
	dl, dh := x-loV, hiV-x
	switch {
	case dl < dh:
		return sign | uint16(lo)
	case dh < dl:
		return sign | hiBits
	case lo%2 == 0:
		return sign | uint16(lo)
	}
	return sign | hiBits
}

func TestFloat16ToFloat32MatchesIEEEFormula(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := uint16(b)
		got := Float16ToFloat32(h)
		sign, exp, man := h>>15, int(h>>10&0x1f), float64(h&0x3ff)
		var want float64
		switch {
		case exp == 0x1f && man == 0:
			want = math.Inf(1)
		case exp == 0x1f:
			// NaN: the payload must survive bit for bit.
			wantBits := uint32(sign)<<31 | 0x7f800000 | uint32(h&0x3ff)<<13
			if math.Float32bits(got) != wantBits {
				t.Fatalf("Float16ToFloat32(%#04x) = %#08x, want %#08x", h, math.Float32bits(got), wantBits)
			}
			continue
		case exp == 0:
			want = man * 0x1p-24
		default:
			want = (1 + man/1024) * math.Ldexp(1, exp-15)
		}
		if sign == 1 {
			want = -want
		}
		if float64(got) != want || math.Signbit(float64(got)) != (sign == 1) {
			t.Fatalf("Float16ToFloat32(%#04x) = %v, want %v", h, got, want)
		}
	}
}

func TestBFloat16ToFloat32IsTopHalf(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		if got := math.Float32bits(BFloat16ToFloat32(uint16(b))); got != uint32(b)<<16 {
			t.Fatalf("BFloat16ToFloat32(%#04x) bits = %#08x", b, got)
		}
	}
}

func TestNarrowRoundTripsEveryBitPattern(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := uint16(b)
		if got := Float32ToFloat16(Float16ToFloat32(h)); got != h {
			t.Fatalf("float16 %#04x → float32 → float16 = %#04x", h, got)
		}
		if got := Float32ToBFloat16(BFloat16ToFloat32(h)); got != h {
			t.Fatalf("bfloat16 %#04x → float32 → bfloat16 = %#04x", h, got)
		}
		v := float64(Float16ToFloat32(h))
		if v == v {
			if got := float64ToFloat16(v); got != h {
				t.Fatalf("float16 %#04x via float64 = %#04x", h, got)
			}
		}
	}
}

// float32Probes returns float32 values around every representable value of
// the format (each side of each midpoint and the midpoints themselves) and
// random bit patterns.
func float32Probes(f *narrowFormat, rng *rand.Rand) []float32 {
	var out []float32
	add := func(x float64) {
		if x32 := float32(x); float64(x32) == x {
			out = append(out, x32, -x32, math.Nextafter32(x32, 0), math.Nextafter32(x32, float32(math.Inf(1))))
		}
	}
	for i, v := range f.values {
		add(v)
		hi := f.next
		if i+1 < len(f.values) {
			hi = f.values[i+1]
		}
		add(v + (hi-v)/2)
	}
	for range 1 << 20 {
		out = append(out, math.Float32frombits(rng.Uint32()))
	}
	return out
}

func TestFloat32ToFloat16RoundsToNearestEven(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, x := range float32Probes(f16Format, rng) {
		if x != x {
			continue
		}
		want := f16Format.round(float64(x))
		if got := Float32ToFloat16(x); got != want {
			t.Fatalf("Float32ToFloat16(%g [%#08x]) = %#04x, want %#04x", x, math.Float32bits(x), got, want)
		}
	}
}

func TestFloat32ToBFloat16RoundsToNearestEven(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, x := range float32Probes(bf16Format, rng) {
		if x != x {
			continue
		}
		want := bf16Format.round(float64(x))
		if got := Float32ToBFloat16(x); got != want {
			t.Fatalf("Float32ToBFloat16(%g [%#08x]) = %#04x, want %#04x", x, math.Float32bits(x), got, want)
		}
	}
}

// The float64 converters must not round twice: a value a hair above a
// midpoint rounds up even when float32 would have rounded it onto the
// midpoint.
func TestFloat64ToNarrowRoundsOnce(t *testing.T) {
	for _, f := range []*narrowFormat{f16Format, bf16Format} {
		conv := float64ToFloat16
		if f == bf16Format {
			conv = float64ToBFloat16
		}
		for i := range len(f.values) - 1 {
			mid := f.values[i] + (f.values[i+1]-f.values[i])/2
			for _, x := range []float64{mid, math.Nextafter(mid, 0), math.Nextafter(mid, math.Inf(1)), -mid, f.values[i]} {
				if got, want := conv(x), f.round(x); got != want {
					t.Fatalf("%s: float64 %v → %#04x, want %#04x", f.name, x, got, want)
				}
			}
		}
		for _, x := range []float64{1e300, -1e300, 5e-324, -5e-324, math.MaxFloat64} {
			if got, want := conv(x), f.round(x); got != want {
				t.Fatalf("%s: float64 %v → %#04x, want %#04x", f.name, x, got, want)
			}
		}
	}
}

func TestNarrowNaNKeepsSignAndPayload(t *testing.T) {
	cases := []struct {
		in       uint32
		f16, b16 uint16
	}{
		{0x7fc00000, 0x7e00, 0x7fc0}, // quiet NaN
		{0xffc00000, 0xfe00, 0xffc0}, // negative quiet NaN
		{0x7f800001, 0x7c01, 0x7f81}, // signalling, payload only in low bits: stays NaN
		{0x7fa00000, 0x7d00, 0x7fa0}, // signalling with a high payload
		{0x7fffe000, 0x7fff, 0x7fff},
	}
	for _, c := range cases {
		x := math.Float32frombits(c.in)
		if got := Float32ToFloat16(x); got != c.f16 {
			t.Errorf("Float32ToFloat16(%#08x) = %#04x, want %#04x", c.in, got, c.f16)
		}
		if got := Float32ToBFloat16(x); got != c.b16 {
			t.Errorf("Float32ToBFloat16(%#08x) = %#04x, want %#04x", c.in, got, c.b16)
		}
	}
}

func TestFormatNarrowShortestRoundTrip(t *testing.T) {
	for _, f := range []*narrowFormat{f16Format, bf16Format} {
		format, conv := FormatFloat16, float64ToFloat16
		if f == bf16Format {
			format, conv = FormatBFloat16, float64ToBFloat16
		}
		for b := 0; b < 1<<16; b++ {
			h := uint16(b)
			s := format(h)
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%s %#04x formats as %q: %v", f.name, h, s, err)
			}
			w := float64(f.widen(h))
			if w != w {
				if v == v {
					t.Fatalf("%s NaN %#04x formats as %q", f.name, h, s)
				}
				continue
			}
			if got := conv(v); got != h {
				t.Fatalf("%s %#04x formats as %q, which reads back as %#04x", f.name, h, s, got)
			}
		}
	}
	for _, c := range []struct {
		got, want string
	}{
		{FormatFloat16(0x2e66), "0.1"},
		{FormatFloat16(0x7bff), "65500"}, // as NumPy prints it: 65500 rounds to 65504
		{FormatFloat16(0x0001), "6e-08"},
		{FormatFloat16(0x3555), "0.3333"},
		{FormatFloat16(0x8000), "-0"},
		{FormatFloat16(0x7c00), "+Inf"},
		{FormatFloat16(0x3c00), "1"},
		{FormatBFloat16(0x4049), "3.14"},
		{FormatBFloat16(0x3f80), "1"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
