package tensor

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// Counting bit patterns must give the statistics the float loop gives for
// the same values: exactly for the counts and extremes, to rounding for
// the moments, on contiguous, unaligned, strided and big-endian views,
// with NaN and infinities mixed in.
func TestCodeStatsAgreeWithTheFloatLoop(t *testing.T) {
	ctx := context.Background()
	const rows, cols = 1024, 1030 // over codeStatsMin elements
	for _, dt := range []DType{Float16, BFloat16, Int16, Uint16, Int8, Uint8, Bool, Float8E4M3FN, Float8E5M2, Float8E8M0FNU} {
		width := dt.Size()
		r := rand.New(rand.NewPCG(uint64(dt), 9))
		raw := make([]byte, 1+rows*cols*width) // one byte in: an odd address
		for i := range raw {
			raw[i] = byte(r.IntN(256))
		}
		base, err := FromBytes(raw[1:], dt, []int{rows, cols})
		if err != nil {
			t.Fatal(err)
		}
		transposed, _ := base.Permute([]int{1, 0})
		sliced, _ := base.Slice(1, 3, cols-7)
		swappedBytes := make([]byte, 0, rows*cols*width)
		for i := 1; i < len(raw); i += width {
			swappedBytes = append(swappedBytes, naiveSwap(raw[i:i+width], dt, false)...)
		}
		swapped, _ := FromBytes(swappedBytes, dt, []int{rows, cols})
		swapped, err = swapped.BigEndian()
		if err != nil {
			t.Fatal(err)
		}
		for name, x := range map[string]*Tensor{"unaligned": base, "transposed": transposed, "sliced": sliced, "big-endian": swapped} {
			if codeWidth(x) != width {
				t.Fatalf("%s: codeWidth %d", dt, codeWidth(x))
			}
			got, err := ComputeStats(ctx, x, nil)
			if err != nil {
				t.Fatal(err)
			}
			f, err := x.ToFloat32(ctx) // float32 holds every value exactly
			if err != nil {
				t.Fatal(err)
			}
			want := floatLoopStats(t, f)
			if got.Count != want.Count || got.Finite != want.Finite || got.NaN != want.NaN || got.PosInf != want.PosInf ||
				got.NegInf != want.NegInf || got.Zeros != want.Zeros || !sameFloat(got.Min, want.Min) || !sameFloat(got.Max, want.Max) ||
				!closeTo(got.Mean, want.Mean, want.Std) || !closeTo(got.Std, want.Std, want.Std) {
				t.Errorf("%s %s:\n got %+v\nwant %+v", dt, name, got, want)
			}
		}
	}
}

// floatLoopStats computes x's statistics through the float32 loop,
// whatever its size.
func floatLoopStats(t *testing.T, x *Tensor) Stats {
	t.Helper()
	l := newLayout(x, true)
	var acc statsAcc
	w := newStatsWorker(&l, x)
	w.cur = &acc
	w.reader.read(0, l.n)
	return acc.stats()
}

func closeTo(a, b, scale float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-12*max(math.Abs(b), scale, 1e-300)
}
