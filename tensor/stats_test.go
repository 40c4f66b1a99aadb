package tensor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

func checkStats(t *testing.T, what string, got, want Stats) {
	t.Helper()
	if got.Count != want.Count || got.Finite != want.Finite || got.NaN != want.NaN ||
		got.PosInf != want.PosInf || got.NegInf != want.NegInf || got.Zeros != want.Zeros {
		t.Fatalf("%s: counts %+v, want %+v", what, got, want)
	}
	if !closeRel(got.Min, want.Min, 0, 0) || !closeRel(got.Max, want.Max, 0, 0) || !closeRel(got.AbsMax, want.AbsMax, 0, 0) {
		t.Fatalf("%s: min/max/absmax %v %v %v, want %v %v %v", what, got.Min, got.Max, got.AbsMax, want.Min, want.Max, want.AbsMax)
	}
	if !closeRel(got.Mean, want.Mean, 1e-12, want.AbsMax) {
		t.Fatalf("%s: mean %v, want %v", what, got.Mean, want.Mean)
	}
	if !closeRel(got.Std, want.Std, 1e-9, want.Std) {
		t.Fatalf("%s: std %v, want %v (rel err %.3g)", what, got.Std, want.Std, math.Abs(got.Std-want.Std)/want.Std)
	}
}

// viewsOf returns x (1-D) and non-contiguous views of the same data.
func viewsOf(t *testing.T, x *Tensor, rows int) map[string]*Tensor {
	t.Helper()
	out := map[string]*Tensor{"contiguous": x}
	n := x.Len()
	if n%rows != 0 || n < 2*rows {
		return out
	}
	m, err := x.View([]int{rows, n / rows})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := m.Permute([]int{1, 0})
	if err != nil {
		t.Fatal(err)
	}
	out["transposed"] = tr
	sl, err := m.Slice(1, 1, n/rows-2)
	if err != nil {
		t.Fatal(err)
	}
	out["sliced columns"] = sl
	col, err := m.Select(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	out["one column"] = col
	return out
}

func TestComputeStatsMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	sizes := []struct {
		n       int
		special float64
	}{{1, 0}, {7, 0.5}, {1000, 0.3}, {70_000, 0.002}}
	for _, dt := range numericDTypes {
		for _, sz := range sizes {
			x := randomTensor(t, rng, dt, sz.n, sz.special)
			for name, v := range viewsOf(t, x, 100) {
				what := fmt.Sprintf("%s n=%d %s", dt, sz.n, name)
				got, err := ComputeStats(context.Background(), v, nil)
				if err != nil {
					t.Fatal(err)
				}
				checkStats(t, what, got, refStatsFor(dt, naiveValues(v)))
			}
		}
	}
}

func refStatsFor(dt DType, vals []float64) Stats {
	if dt == Float64 {
		return refStats(vals)
	}
	return refStatsPrec(vals, 400)
}

func TestComputeStatsEdgeCases(t *testing.T) {
	ctx := context.Background()
	f32 := func(vals ...float32) *Tensor {
		b := make([]byte, 4*len(vals))
		for i, v := range vals {
			putF32(b[4*i:], v)
		}
		x, _ := FromBytes(b, Float32, []int{len(vals)})
		return x
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	cases := map[string]*Tensor{
		"empty":     seqTensor(t, 0, 3),
		"scalar":    func() *Tensor { x, _ := seqTensor(t, 4).Select(0, 2); return x }(),
		"all NaN":   f32(nan, nan, nan, nan, nan),
		"only inf":  f32(inf, -inf, inf),
		"constant":  f32(0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1),
		"zeros":     f32(0, float32(math.Copysign(0, -1)), 0, 0, 0),
		"extremes":  f32(math.MaxFloat32, -math.MaxFloat32, math.MaxFloat32, 1),
		"one value": f32(-3),
		"NaN first": f32(nan, 1, 2, 3, 4, 5, 6, 7),
	}
	for name, x := range cases {
		got, err := ComputeStats(ctx, x, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkStats(t, name, got, refStats(naiveValues(x)))
	}
	// A constant tensor far from where the first block centred its sums
	// must still have a standard deviation of exactly 0.
	b := make([]byte, 4*20000)
	for i := range 20000 {
		v := float32(1e6)
		if i < 5000 {
			v = float32(i)
		}
		putF32(b[4*i:], v)
	}
	x, _ := FromBytes(b, Float32, []int{4, 5000})
	last, _ := x.Slice(0, 1, 3)
	st, err := ComputeStats(ctx, last, nil)
	if err != nil || st.Std != 0 || st.Mean != 1e6 {
		t.Fatalf("constant rows: %+v, %v", st, err)
	}
	// Extremes at or near zero with tinier values next to them: in the fast
	// loop's shifted sums 1e-45 − 0.5 rounds onto 0 − 0.5.
	rng := rand.New(rand.NewPCG(3, 3))
	for _, tc := range []struct {
		name  string
		patch map[int]float32
	}{
		{"subnormal above a zero max", map[int]float32{100: 0, 5000: 1e-45}},
		{"subnormal below a zero min", map[int]float32{100: 0, 5000: -1e-45}},
		{"zero above a tiny negative max", map[int]float32{100: -1e-40, 6000: 0}},
		{"tiny above a tiny max", map[int]float32{100: 1e-40, 6000: 2e-40, 6001: 0}},
	} {
		b := make([]byte, 4*3*statsBlock)
		for i := range 3 * statsBlock {
			v := -rng.Float32() - 0.5 // all negative: the max is the near-zero extreme
			if tc.name == "subnormal below a zero min" {
				v = -v
			}
			if p, ok := tc.patch[i]; ok {
				v = p
			}
			putF32(b[4*i:], v)
		}
		x, _ := FromBytes(b, Float32, []int{3 * statsBlock})
		got, err := ComputeStats(ctx, x, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkStats(t, tc.name, got, refStatsFor(Float32, naiveValues(x)))
	}
	if _, err := ComputeStats(ctx, mustComplex(t), nil); !errors.Is(err, ErrNotNumeric) {
		t.Fatalf("complex stats: %v", err)
	}
}

func mustComplex(t *testing.T) *Tensor {
	x, err := FromBytes(make([]byte, 32), Complex64, []int{4})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// Variance must survive data whose mean dwarfs its spread.
func TestComputeStatsIsStable(t *testing.T) {
	const n = 1 << 18
	b := make([]byte, 8*n)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range n {
		putF64(b[8*i:], 1e9+float64(rng.IntN(2))*1e-6) // mean ≈ 1e9, std ≈ 5e-7
	}
	x, _ := FromBytes(b, Float64, []int{n})
	got, err := ComputeStats(context.Background(), x, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkStats(t, "large mean", got, refStatsPrec(naiveValues(x), 200)) // values span 2^30 ± 2^-20
}

// Results must not depend on how many goroutines did the work.
func TestComputeStatsDeterministic(t *testing.T) {
	x := randomTensor(t, rand.New(rand.NewPCG(5, 5)), Float32, 700_000, 0.001)
	old := runtime.GOMAXPROCS(1)
	one, err1 := ComputeStats(context.Background(), x, nil)
	runtime.GOMAXPROCS(4)
	four, err2 := ComputeStats(context.Background(), x, nil)
	runtime.GOMAXPROCS(old)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if one != four {
		t.Fatalf("GOMAXPROCS 1: %+v\nGOMAXPROCS 4: %+v", one, four)
	}
}
