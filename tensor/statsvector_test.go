package tensor

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// The SIMD loop gives, lane for lane, the sums of its Go definition:
// every lane of every accumulator (the extremes are
// compared folded: the lanes start from different values) is exercised with lengths of one to
// many steps, extremes anywhere, zeros of both signs.
func TestSumsSIMDMatchesPortable(t *testing.T) {
	needSIMD(t)
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
	needSIMD(t)
	testFastLoop(t, (*statsAcc).fastF32Vector)
}

// The scalar loop, which CPUs without AVX run, is held to the same
// reference: on an AVX machine addF32 never reaches it.
func TestFastF32AgreesWithReference(t *testing.T) {
	testFastLoop(t, (*statsAcc).fastF32)
}

// needSIMD skips a test of the SIMD loop where it cannot run: on other
// architectures sumsSIMD is sumsPortable, and on an amd64 CPU without
// AVX the loop dies with SIGILL.
func needSIMD(t *testing.T) {
	t.Helper()
	if !simdStats {
		t.Skipf("no SIMD statistics loop on this CPU (%s without AVX and POPCNT, or another architecture): the scalar loop is tested instead", runtime.GOARCH)
	}
}

// testFastLoop holds a fast loop to an exact two-pass reference: blocks of
// every length, alone and merged after another block, with values far
// from zero and values about zero (the scalar loop's extremes need
// bookkeeping there), and NaN and ±Inf anywhere sending the block to the
// classifying loop.
func testFastLoop(t *testing.T, fast func(*statsAcc, []float32) bool) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, centre := range []float64{1000, 0, -3e-3} {
		for n := 1; n <= 70; n++ {
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(centre + rng.NormFloat64())
				switch rng.IntN(8) {
				case 0:
					x[i] = 0
				case 1:
					x[i] = float32(centre * 1e-6 * rng.NormFloat64())
				}
			}
			checkFastLoop(t, fast, nil, x)
			prev := make([]float32, 1+rng.IntN(40))
			for i := range prev {
				prev[i] = float32(centre/2 + 5*rng.NormFloat64())
			}
			checkFastLoop(t, fast, prev, x)
		}
	}
}

func checkFastLoop(t *testing.T, fast func(*statsAcc, []float32) bool, prev, x []float32) {
	t.Helper()
	n := len(x)
	var a, ref statsAcc
	if len(prev) > 0 {
		slowStats(&a, prev, make([]float32, len(prev)))
		slowStats(&ref, prev, make([]float32, len(prev)))
	}
	before := a
	if !fast(&a, x) {
		t.Fatalf("n=%d after %d: finite block refused", n, len(prev))
	}
	slowStats(&ref, x, make([]float32, n))
	got, want := a.stats(), ref.stats()
	if got.Count != want.Count || got.Zeros != want.Zeros || got.Min != want.Min || got.Max != want.Max ||
		!nearRel(got.Mean, want.Mean, 1e-12) || !nearRel(got.Std, want.Std, 1e-9) {
		t.Fatalf("n=%d after %d: got %+v, want %+v", n, len(prev), got, want)
	}
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		y := append([]float32(nil), x...)
		y[rand.IntN(n)] = bad
		b := before
		if fast(&b, y) {
			t.Fatalf("n=%d: block with %v accepted by the fast loop", n, bad)
		}
	}
}

func nearRel(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}
