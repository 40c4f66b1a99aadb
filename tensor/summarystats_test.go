package tensor

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

func summaryOf(t *testing.T, x *Tensor) Summary {
	t.Helper()
	s, err := ComputeSummary(context.Background(), x, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func sumF32Tensor(t *testing.T, vals []float32, shape ...int) *Tensor {
	t.Helper()
	x, err := FromFloat32s(vals, shape)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// Figures worked out by hand.
func TestSummaryHandComputed(t *testing.T) {
	s := summaryOf(t, sumF32Tensor(t, []float32{1, 2, 3, 4}, 4))
	// mean 2.5, m2 = 1.25, m4 = (2·1.5⁴ + 2·0.5⁴)/4 = 2.5625; 2.5625/1.5625 − 3.
	if math.Abs(s.Kurtosis-(-1.36)) > 1e-15 {
		t.Errorf("kurtosis of [1 2 3 4] = %v, want -1.36", s.Kurtosis)
	}
	if s.L2 != math.Sqrt(30) {
		t.Errorf("l2 = %v, want sqrt(30)", s.L2)
	}
	if want := 1.5 / math.Sqrt(1.25); math.Abs(s.OutlierRatio()-want) > 1e-15 {
		t.Errorf("outlier ratio = %v, want %v", s.OutlierRatio(), want)
	}
	if s.DeadRows != 0 {
		t.Errorf("rank 1 has %d dead rows", s.DeadRows)
	}

	// [0 0 0 10]: mean 2.5, m2 = 18.75, m4 = (3·2.5⁴ + 7.5⁴)/4; kurtosis
	// = 3 − 3 + ... = 1/3 after simplification.
	s = summaryOf(t, sumF32Tensor(t, []float32{0, 0, 0, 10}, 2, 2))
	if math.Abs(s.Kurtosis-(-2.0/3)) > 1e-15 {
		t.Errorf("kurtosis of [0 0 0 10] = %v, want -2/3", s.Kurtosis)
	}
	if s.DeadRows != 1 || s.Zeros != 3 {
		t.Errorf("dead rows %d zeros %d, want 1 and 3", s.DeadRows, s.Zeros)
	}
	if want := 7.5 / math.Sqrt(18.75); math.Abs(s.OutlierRatio()-want) > 1e-15 {
		t.Errorf("outlier ratio = %v, want %v", s.OutlierRatio(), want)
	}

	s = summaryOf(t, sumF32Tensor(t, []float32{0.1, 0.1, 0.1}, 3))
	if s.Std != 0 || !math.IsNaN(s.Kurtosis) || !math.IsNaN(s.OutlierRatio()) {
		t.Errorf("constant: std %v kurtosis %v outlier %v, want 0, NaN, NaN", s.Std, s.Kurtosis, s.OutlierRatio())
	}

	nan := float32(math.NaN())
	s = summaryOf(t, sumF32Tensor(t, []float32{0, 0, nan, 0, 0, 0, 1, 2, 3, 4, 0, 0}, 4, 3))
	// Row 0 holds a NaN, which is not zero; row 1 is dead.
	if s.DeadRows != 1 || s.NaN != 1 {
		t.Errorf("dead rows %d NaN %d, want 1 and 1", s.DeadRows, s.NaN)
	}
	s = summaryOf(t, sumF32Tensor(t, []float32{nan, float32(math.Inf(1))}, 2))
	if s.Finite != 0 || s.L2 != 0 || !math.IsNaN(s.Kurtosis) {
		t.Errorf("no finite values: %+v", s)
	}
}

// refMoments is a plain two-pass reference over the finite values.
func refMoments(vals []float64) (l2, kurt float64) {
	var n, sum, sq float64
	for _, v := range vals {
		if v-v == 0 {
			n++
			sum += v
			sq += v * v
		}
	}
	mean := sum / n
	var m2, m4 float64
	for _, v := range vals {
		if v-v == 0 {
			d := v - mean
			m2 += d * d
			m4 += d * d * d * d
		}
	}
	return math.Sqrt(sq), n*m4/(m2*m2) - 3
}

// The statistics inside a Summary are exactly ComputeStats', and the
// moments agree with a two-pass reference, for every dtype, through the
// fast loops, the slow loops and the pattern tables.
func TestSummaryAgreesWithStats(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 24))
	for _, dt := range numericDTypes {
		for _, n := range []int{1, 5, 4097, 70000, 1<<20 + 13} {
			if n > 70000 && dt.Size() > 2 {
				continue
			}
			for _, special := range []float64{0, 0.01} {
				x := randomTensor(t, rng, dt, n, special)
				st, err := ComputeStats(context.Background(), x, nil)
				if err != nil {
					t.Fatal(err)
				}
				s := summaryOf(t, x)
				if !sameStats(st, s.Stats) {
					t.Fatalf("%s n=%d special=%v: summary stats %+v, stats %+v", dt, n, special, s.Stats, st)
				}
				if special > 0 || dt == Float64 && special > 0 {
					continue
				}
				l2, kurt := refMoments(naiveValues(x))
				if !closeRel(s.L2, l2, 1e-12, l2) {
					t.Errorf("%s n=%d: l2 %v, want %v", dt, n, s.L2, l2)
				}
				if st.Finite > 1 && st.Min != st.Max && !closeRel(s.Kurtosis, kurt, 1e-9, math.Abs(kurt)+1) {
					t.Errorf("%s n=%d: kurtosis %v, want %v", dt, n, s.Kurtosis, kurt)
				}
			}
		}
	}
}

func sameStats(a, b Stats) bool {
	return a.Count == b.Count && a.Finite == b.Finite && a.NaN == b.NaN && a.PosInf == b.PosInf &&
		a.NegInf == b.NegInf && a.Zeros == b.Zeros && sameFloat(a.Min, b.Min) && sameFloat(a.Max, b.Max) &&
		sameFloat(a.Mean, b.Mean) && sameFloat(a.Std, b.Std) && sameFloat(a.AbsMax, b.AbsMax)
}

// Huge and tiny float64 values are scaled so that their fourth powers
// neither overflow nor vanish.
func TestSummaryExtremeMagnitudes(t *testing.T) {
	for _, scale := range []float64{1e300, 1e-300} {
		vals := []float64{1, 2, 3, 4}
		b := make([]byte, 8*len(vals))
		for i, v := range vals {
			putF64(b[8*i:], v*scale)
		}
		x, err := FromBytes(b, Float64, []int{4})
		if err != nil {
			t.Fatal(err)
		}
		s := summaryOf(t, x)
		if math.Abs(s.Kurtosis+1.36) > 1e-12 {
			t.Errorf("scale %g: kurtosis %v, want -1.36", scale, s.Kurtosis)
		}
		if want := math.Sqrt(30) * scale; !closeRel(s.L2, want, 1e-14, want) {
			t.Errorf("scale %g: l2 %v, want %v", scale, s.L2, want)
		}
	}
}

// Dead rows through the block loops and the pattern tables, with rows
// longer and shorter than a block and crossing chunks.
func TestSummaryDeadRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range []DType{Float32, Float16, Float64, Int8} {
		for _, shape := range [][]int{{300, 5000}, {1 << 16, 20}, {7, 3}, {3000, 7, 50}} {
			rows, rowLen := shape[0], 1
			for _, d := range shape[1:] {
				rowLen *= d
			}
			x := randomTensor(t, rng, dt, rows*rowLen, 0)
			b := x.storage.data
			size := dt.Size()
			// Make every value nonzero, then kill some rows and put one
			// nonzero at the end of another all-zero row.
			for i := range rows * rowLen {
				if isZeroBytes(b[i*size : (i+1)*size]) {
					b[i*size] = 1
				}
			}
			dead := map[int]bool{0: true, rows / 2: true, rows - 1: true}
			if rows > 5 {
				dead[3] = true
			}
			for r := range dead {
				clear(b[r*rowLen*size : (r+1)*rowLen*size])
			}
			almost := 1
			if rows > 4 {
				almost = 4
			}
			if !dead[almost] {
				clear(b[almost*rowLen*size : (almost+1)*rowLen*size])
				b[((almost+1)*rowLen-1)*size] = 1
			}
			s := summaryOf(t, x.mustReshape(t, shape))
			if s.DeadRows != int64(len(dead)) {
				t.Errorf("%s %v: %d dead rows, want %d", dt, shape, s.DeadRows, len(dead))
			}
		}
	}
}

func isZeroBytes(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func (x *Tensor) mustReshape(t *testing.T, shape []int) *Tensor {
	t.Helper()
	y, err := New(x.storage, 0, x.dtype, shape)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

// The result does not depend on the number of cores.
func TestSummaryDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := randomTensor(t, rng, Float32, 3<<20, 0)
	a := summaryOf(t, x)
	for range 3 {
		b := summaryOf(t, x)
		if !sameStats(a.Stats, b.Stats) || !sameFloat(a.Kurtosis, b.Kurtosis) || !sameFloat(a.L2, b.L2) {
			t.Fatalf("summaries differ: %+v and %+v", a, b)
		}
	}
}

// The SIMD loop of the higher moments gives exactly what its Go twin does.
func TestPowerSumsSIMD(t *testing.T) {
	if !simdStats {
		t.Skip("no SIMD loop on this CPU")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{8, 16, 4096, 800} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64()*5 + 3)
		}
		var got, want [4][4]float64
		powerSumsAVX(&x[0], n, 2.5, &got)
		powerLanesPortable(x, 2.5, &want)
		if got != want {
			t.Errorf("n=%d: SIMD %v, Go %v", n, got, want)
		}
	}
}
