package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The SIMD loop gives, lane for lane, the sums of its Go definition:
// every lane of every accumulator (the extremes are
// compared folded: the lanes start from different values) is exercised with lengths of one to
// many steps, extremes anywhere, zeros of both signs.
func TestSumsSIMDMatchesPortable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{16, 32, 48, 160, 4096} {
		for trial := range 20 {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(rng.NormFloat64() * 3)
				switch rng.IntN(10) {
				case 0:
					x[i] = 0
				case 1:
					x[i] = float32(math.Copysign(0, -1))
				}
			}
			hi := rng.IntN(n)
			x[hi] = 1e6
			x[(hi+1+rng.IntN(n-1))%n] = -1e6
			s := float64(x[trial%n])
			var got, want vectorSums
			sumsSIMD(x, s, &got)
			sumsPortable(x, s, &want)
			if got.sd != want.sd || got.sq != want.sq || got.zeros != want.zeros {
				t.Fatalf("n=%d: SIMD sums %v %v %d, portable %v %v %d", n, got.sd, got.sq, got.zeros, want.sd, want.sq, want.zeros)
			}
			gmn, gmx := got.extremes()
			wmn, wmx := want.extremes()
			if gmn != wmn || gmx != wmx || gmn != -1e6 || gmx != 1e6 {
				t.Fatalf("n=%d: SIMD extremes %v..%v, portable %v..%v", n, gmn, gmx, wmn, wmx)
			}
		}
	}
}

// Blocks of every length, through the loop the CPU has, agree with an
// exact two-pass reference; NaN and ±Inf anywhere send the block to the
// classifying loop.
func TestFastF32VectorAgreesWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 70; n++ {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(1000 + rng.NormFloat64())
			if rng.IntN(8) == 0 {
				x[i] = 0
			}
		}
		var a statsAcc
		if !a.fastF32Vector(x) {
			t.Fatalf("n=%d: finite block refused", n)
		}
		var ref statsAcc
		slowStats(&ref, x, make([]float32, n))
		got, want := a.stats(), ref.stats()
		if got.Zeros != want.Zeros || got.Min != want.Min || got.Max != want.Max ||
			!nearRel(got.Mean, want.Mean, 1e-14) || !nearRel(got.Std, want.Std, 1e-9) {
			t.Fatalf("n=%d: got %+v, want %+v", n, got, want)
		}
		for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
			y := append([]float32(nil), x...)
			y[rng.IntN(n)] = bad
			var b statsAcc
			if b.fastF32Vector(y) {
				t.Fatalf("n=%d: block with %v accepted by the fast loop", n, bad)
			}
		}
	}
}

func nearRel(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}
