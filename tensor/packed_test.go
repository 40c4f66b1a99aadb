package tensor

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/x448/float16"
)

// fakeBlockDType stands for a block-quantised type in these tests, with a
// q8_0-shaped decoder of our own (a float16 scale, then 32 int8 codes):
// the real ggml decoders live with the GGUF codec.
const fakeBlockDType = GGMLQ8_0

func decodeFakeBlocks(dst []float32, src []byte) {
	for u := 0; u+34 <= len(src); u += 34 {
		scale := float16.Frombits(binary.LittleEndian.Uint16(src[u:])).Float32()
		for k := range 32 {
			dst[u/34*32+k] = scale * float32(int8(src[u+2+k]))
		}
	}
}

// withFakeBlocks registers the fake block decoder for the test's duration.
func withFakeBlocks(t testing.TB) {
	old := unitDecoders[fakeBlockDType]
	unitDecoders[fakeBlockDType] = decodeFakeBlocks
	t.Cleanup(func() { unitDecoders[fakeBlockDType] = old })
}

var packedDTypes = []DType{Int4, Uint4, Int2, Uint2, Float4E2M1FN, Float6E2M3FN, Float6E3M2FN, fakeBlockDType}

// randomPacked returns a [rows, cols] tensor of dt over random bytes, whose
// data starts at byte 3 of its storage (fake block scales are sane
// float16s, with an occasional NaN or Inf).
func randomPacked(t testing.TB, rng *rand.Rand, dt DType, rows, cols int) *Tensor {
	t.Helper()
	need, err := StorageBytes(dt, int64(rows*cols))
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 3+need+5)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	if dt == fakeBlockDType {
		for u := 3; u+34 <= len(b); u += 34 {
			h := Float32ToFloat16(float32(rng.NormFloat64() * 0.01))
			if rng.IntN(20) == 0 {
				h = []uint16{0x7c00, 0xfc00, 0x7e00, 0}[rng.IntN(4)]
			}
			binary.LittleEndian.PutUint16(b[u:], h)
		}
	}
	x, err := New(NewStorage(b), 3, dt, []int{rows, cols})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// packedViews are views of a [6, 96] packed tensor that start inside units
// and walk them in every direction.
func packedViews(t testing.TB, x *Tensor) map[string]*Tensor {
	t.Helper()
	must := func(v *Tensor, err error) *Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tr := must(x.Permute([]int{1, 0}))
	return map[string]*Tensor{
		"whole":             x,
		"columns 37..86":    must(x.Slice(1, 37, 50)),
		"row 3":             must(x.Select(0, 3)),
		"column 5":          must(x.Select(1, 5)),
		"transposed":        must(tr.Slice(0, 1, 90)),
		"split":             must(must(x.Slice(1, 3, 90)).DimSplit(1, []int{9, 10})),
		"flat":              must(x.View([]int{576})),
		"plane of split":    must(Plane(must(x.DimSplit(1, []int{4, 24})), 2, 0, []int{0, 3, 0})),
		"one element":       must(x.Slice(0, 5, 1)).mustSlice(t, 1, 95, 1),
		"every other row":   must(must(x.DimSplit(0, []int{3, 2})).Select(1, 1)),
		"columns 1..95 T":   must(must(x.Slice(1, 1, 95)).Permute([]int{1, 0})),
		"rows 1..5, col 31": must(must(x.Slice(0, 1, 5)).Slice(1, 31, 1)),
	}
}

func (t *Tensor) mustSlice(tb testing.TB, dim, start, length int) *Tensor {
	v, err := t.Slice(dim, start, length)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// TestPackedViewsMatchNaiveDecoding checks every element accessor and
// kernel on views of every packed dtype against the bit-by-bit reference.
func TestPackedViewsMatchNaiveDecoding(t *testing.T) {
	withFakeBlocks(t)
	rng := rand.New(rand.NewPCG(7, 8))
	ctx := context.Background()
	for _, dt := range packedDTypes {
		x := randomPacked(t, rng, dt, 6, 96)
		for name, v := range packedViews(t, x) {
			what := dt.String() + " " + name
			checkViewValues(t, what, v)
			want := naiveValues(v)
			st, err := ComputeStats(ctx, v, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkStats(t, what, st, refStatsFor(Float32, want))
			h, err := ComputeHistogram(ctx, v, 7, 0, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameHistogram(h, refHistogram(h, want)); err != nil {
				t.Fatalf("%s: histogram: %v", what, err)
			}
			if v.Rank() == 2 {
				for _, r := range []Reduction{ReduceMean, ReduceMin, ReduceAbsMax} {
					for _, gs := range [][2]int{{1, 1}, {2, 7}, {100, 100}} {
						g, err := Downsample(ctx, v, gs[0], gs[1], r, nil)
						if err != nil {
							t.Fatal(err)
						}
						if err := checkGrid(g, v, gs[0], gs[1], r); err != nil {
							t.Fatalf("%s: downsample %v to %v: %v", what, r, gs, err)
						}
					}
				}
			}
		}
	}
}

// checkViewValues compares Float64At, ReadFloat64s, ElementString and
// ToFloat32 with the naive reading, and checks that raw bytes are refused.
func checkViewValues(t *testing.T, what string, v *Tensor) {
	t.Helper()
	want := naiveValues(v)
	i := 0
	forEachIndex(v.Shape(), func(idx []int) {
		got, err := v.Float64At(idx)
		if err != nil || !sameFloat(got, want[i]) {
			t.Fatalf("%s: Float64At(%v) = %v, %v; want %v", what, idx, got, err, want[i])
		}
		s, err := v.ElementString(idx)
		if err != nil {
			t.Fatal(err)
		}
		if !readsBackAs(v.DType(), s, want[i]) {
			t.Fatalf("%s: ElementString(%v) = %q, value %v", what, idx, s, want[i])
		}
		if _, err := v.ElementBytes(idx); !errors.Is(err, ErrNoBytes) {
			t.Fatalf("%s: ElementBytes: %v, want ErrNoBytes", what, err)
		}
		i++
	})
	got := make([]float64, len(want))
	if err := v.ReadFloat64s(0, got); err != nil || !equalFloats(got, want) {
		t.Fatalf("%s: ReadFloat64s = %v, %v; want %v", what, got, err, want)
	}
	if len(want) > 2 {
		part := make([]float64, len(want)-2)
		if err := v.ReadFloat64s(1, part); err != nil || !equalFloats(part, want[1:len(want)-1]) {
			t.Fatalf("%s: ReadFloat64s from 1 = %v, %v", what, part, err)
		}
	}
	f, err := v.ToFloat32(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := naiveValues(f); !equalFloats(got, want) {
		t.Fatalf("%s: ToFloat32 = %v, want %v", what, got, want)
	}
	if _, err := v.ContiguousBytes(context.Background()); !errors.Is(err, ErrNoBytes) {
		t.Fatalf("%s: ContiguousBytes: %v, want ErrNoBytes", what, err)
	}
}

func TestPackedBounds(t *testing.T) {
	withFakeBlocks(t)
	cases := []struct {
		dt    DType
		n     int
		bytes int
	}{
		{Int4, 5, 3}, {Uint4, 4, 2}, {Int2, 5, 2}, {Uint2, 8, 2},
		{Float4E2M1FN, 1, 1}, {Float6E2M3FN, 5, 4}, {Float6E3M2FN, 4, 3}, {Float6E3M2FN, 6, 5},
		{fakeBlockDType, 64, 68},
	}
	for _, c := range cases {
		b := make([]byte, c.bytes)
		if _, err := FromBytes(b, c.dt, []int{c.n}); err != nil {
			t.Errorf("%s[%d] in %d bytes: %v", c.dt, c.n, c.bytes, err)
		}
		if _, err := FromBytes(b[:c.bytes-1], c.dt, []int{c.n}); err == nil {
			t.Errorf("%s[%d] in %d bytes: no error", c.dt, c.n, c.bytes-1)
		}
		if _, err := NewStrided(NewStorage(b), 0, c.dt, []int{c.n}, []int{1}); err != nil {
			t.Errorf("NewStrided %s[%d] in %d bytes: %v", c.dt, c.n, c.bytes, err)
		}
		if _, err := NewStrided(NewStorage(b[:c.bytes-1]), 0, c.dt, []int{c.n}, []int{1}); err == nil {
			t.Errorf("NewStrided %s[%d] in %d bytes: no error", c.dt, c.n, c.bytes-1)
		}
	}
	if _, err := FromBytes(make([]byte, 68), fakeBlockDType, []int{40}); err == nil {
		t.Error("40 elements of a 32-element block type: no error")
	}
	// A float6 tensor that ends inside its last unit, at the storage's end:
	// the unit is padded, not read past the end.
	b := []byte{0xff, 0xff, 0xff, 0x3f}
	x, err := FromBytes(b, Float6E3M2FN, []int{5})
	if err != nil {
		t.Fatal(err)
	}
	checkViewValues(t, "float6 ending inside a unit", x)
}

func TestPackedWithoutDecoderIsNotNumeric(t *testing.T) {
	old := unitDecoders[GGMLIQ1_M]
	unitDecoders[GGMLIQ1_M] = nil
	defer func() { unitDecoders[GGMLIQ1_M] = old }()
	x, err := FromBytes(make([]byte, 56), GGMLIQ1_M, []int{256})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ComputeStats(context.Background(), x, nil); !errors.Is(err, ErrNotNumeric) {
		t.Fatalf("stats without a decoder: %v", err)
	}
	if _, err := x.ElementString([]int{3}); !errors.Is(err, ErrNotNumeric) {
		t.Fatalf("ElementString without a decoder: %v", err)
	}
}

// TestSubByteBitOrder pins the documented bit order with hand-made bytes.
func TestSubByteBitOrder(t *testing.T) {
	cases := []struct {
		dt   DType
		b    []byte
		want []float64
	}{
		{Int4, []byte{0x7f, 0x18}, []float64{-1, 7, -8, 1}},
		{Uint4, []byte{0x7f, 0x18}, []float64{15, 7, 8, 1}},
		{Int2, []byte{0b11_10_01_00}, []float64{0, 1, -2, -1}},
		{Uint2, []byte{0b11_10_01_00}, []float64{0, 1, 2, 3}},
		{Float4E2M1FN, []byte{0xf1, 0x27}, []float64{0.5, -6, 6, 1}},
		// 0x04 = 1.0 (e2m3: 0.01.000 → 2^0·1), 0x3f = 7.5, 0x20 = −0, 0x01 = 0.125
		{Float6E2M3FN, pack6(0x08, 0x1f, 0x20, 0x01), []float64{1, 7.5, math.Copysign(0, -1), 0.125}},
		{Float6E3M2FN, pack6(0x0c, 0x1f, 0x3f, 0x01), []float64{1, 28, -28, 0.0625}},
	}
	for _, c := range cases {
		x, err := FromBytes(c.b, c.dt, []int{len(c.want)})
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, len(c.want))
		if err := x.ReadFloat64s(0, got); err != nil || !equalFloats(got, c.want) {
			t.Errorf("%s % x = %v, %v; want %v", c.dt, c.b, got, err, c.want)
		}
	}
}

// pack6 packs four 6-bit patterns, the first in the lowest bits.
func pack6(a, b, c, d uint32) []byte {
	w := a | b<<6 | c<<12 | d<<18
	return []byte{byte(w), byte(w >> 8), byte(w >> 16)}
}

// readsBackAs reports whether text s, read as a float64 and rounded to dt
// (float32 for block types), is value v.
func readsBackAs(dt DType, s string, v float64) bool {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s == "NaN" && v != v
	}
	switch {
	case dt.IsInteger():
		return x == v && strconv.FormatInt(int64(v), 10) == s
	case minifloats[dt] != nil:
		return sameFloat(float64(NarrowFloatValue(dt, Float32ToNarrow(dt, float32(x), false))), v)
	}
	return sameFloat(float64(float32(x)), v)
}
