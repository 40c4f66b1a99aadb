package tensor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// refHistogram bins vals one by one with the documented formula (Bin).
func refHistogram(h *Histogram, vals []float64) *Histogram {
	r := &Histogram{Lo: h.Lo, Hi: h.Hi, Counts: make([]int64, len(h.Counts))}
	for _, v := range vals {
		switch b := h.Bin(v); {
		case v != v:
			r.NaN++
		case math.IsInf(v, 1):
			r.PosInf++
		case math.IsInf(v, -1):
			r.NegInf++
		case b < 0:
			r.Below++
		case b >= len(h.Counts):
			r.Above++
		default:
			r.Counts[b]++
		}
	}
	return r
}

func sameHistogram(a, b *Histogram) error {
	if a.NaN != b.NaN || a.PosInf != b.PosInf || a.NegInf != b.NegInf || a.Below != b.Below || a.Above != b.Above {
		return fmt.Errorf("NaN/+Inf/-Inf/below/above %d %d %d %d %d, want %d %d %d %d %d",
			a.NaN, a.PosInf, a.NegInf, a.Below, a.Above, b.NaN, b.PosInf, b.NegInf, b.Below, b.Above)
	}
	for i := range a.Counts {
		if a.Counts[i] != b.Counts[i] {
			return fmt.Errorf("bin %d: %d, want %d", i, a.Counts[i], b.Counts[i])
		}
	}
	return nil
}

// exactBin is the mathematically exact bin of v, ⌊(v−lo)·bins/(hi−lo)⌋,
// in rationals.
func exactBin(v, lo, hi float64, bins int) int {
	num := new(big.Rat).Sub(new(big.Rat).SetFloat64(v), new(big.Rat).SetFloat64(lo))
	num.Mul(num, new(big.Rat).SetInt64(int64(bins)))
	den := new(big.Rat).Sub(new(big.Rat).SetFloat64(hi), new(big.Rat).SetFloat64(lo))
	q := new(big.Rat).Quo(num, den)
	b := new(big.Int).Quo(q.Num(), q.Denom())
	return min(int(b.Int64()), bins-1)
}

func TestHistogramMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	ctx := context.Background()
	for _, dt := range numericDTypes {
		for _, n := range []int{1, 1000, 70_000} {
			x := randomTensor(t, rng, dt, n, 0.01)
			for name, v := range viewsOf(t, x, 100) {
				vals := naiveValues(v)
				sorted := finiteSorted(vals)
				for _, bins := range []int{1, 7, 256} {
					h, err := ComputeHistogram(ctx, v, bins, 0, 0, nil)
					if err != nil {
						t.Fatal(err)
					}
					if k := len(sorted); k > 0 && sorted[0] < sorted[k-1] && (h.Lo != sorted[0] || h.Hi != sorted[k-1]) {
						t.Fatalf("%s %s: auto range [%v, %v], want [%v, %v]", dt, name, h.Lo, h.Hi, sorted[0], sorted[k-1])
					}
					if err := sameHistogram(h, refHistogram(h, vals)); err != nil {
						t.Fatalf("%s n=%d %s %d bins: %v", dt, n, name, bins, err)
					}
					if h.Below != 0 || h.Above != 0 || h.Total() != int64(len(vals)) {
						t.Fatalf("%s %s: auto range left %d below, %d above; total %d of %d", dt, name, h.Below, h.Above, h.Total(), len(vals))
					}
				}
				// A given range, cutting off part of the data.
				h, err := ComputeHistogram(ctx, v, 10, -3, 40, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameHistogram(h, refHistogram(h, vals)); err != nil {
					t.Fatalf("%s n=%d %s [-3,40]: %v", dt, n, name, err)
				}
			}
		}
	}
}

// Bin follows the exact formula except where float64 rounding puts a value
// within an ulp of an edge, and Edge agrees with Bin exactly.
func TestHistogramBinsAndEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	ranges := [][2]float64{{0, 1}, {-1, 1}, {-3.7, 12.25}, {1e9, 1e9 + 1}, {-1e-300, 1e-300},
		{9.005004792076203e-308, 9.561273256703003e-308}, {0, 5e-324}, {-5e-324, 5e-324},
		{-math.MaxFloat64, math.MaxFloat64}, {0.1, 0.30000000000000004}, {5, 5 + 1e-9}}
	for _, rg := range ranges {
		for _, bins := range []int{1, 3, 10, 256, 4096} {
			h := newHistogram(bins, rg[0], rg[1])
			if h.Bin(h.Lo) != 0 || h.Bin(h.Hi) != bins-1 {
				t.Fatalf("%v/%d: Lo in bin %d, Hi in bin %d", rg, bins, h.Bin(h.Lo), h.Bin(h.Hi))
			}
			if h.Bin(math.Nextafter(h.Lo, math.Inf(-1))) != -1 || h.Bin(math.Nextafter(h.Hi, math.Inf(1))) != bins {
				t.Fatalf("%v/%d: values just outside are inside", rg, bins)
			}
			prev := h.Lo
			for i := 1; i < bins; i++ {
				e := h.Edge(i)
				if e < prev {
					t.Fatalf("%v/%d: edge %d = %v below edge %d = %v", rg, bins, i, e, i-1, prev)
				}
				if h.Bin(e) < i || (e > h.Lo && h.Bin(math.Nextafter(e, math.Inf(-1))) >= i) {
					t.Fatalf("%v/%d: edge %d = %v is not where bin %d starts", rg, bins, i, e, i)
				}
				prev = e
			}
			for range 200 {
				v := rg[0] + rng.Float64()*(rg[1]-rg[0])
				if math.IsInf(rg[1]-rg[0], 0) {
					v = (rng.Float64()*2 - 1) * math.MaxFloat64
				}
				b := h.Bin(v)
				if b < 0 || b >= bins || v < h.Edge(b) || (b+1 < bins && v >= h.Edge(b+1)) {
					t.Fatalf("%v/%d: %v in bin %d, edges [%v, %v)", rg, bins, v, b, h.Edge(b), h.Edge(b+1))
				}
				if x := exactBin(v, h.Lo, h.Hi, bins); x != b {
					// Only a value within rounding of the exact edge may differ.
					w := (h.Hi - h.Lo) / float64(bins)
					if math.IsInf(w, 0) {
						w = h.Hi/float64(bins) - h.Lo/float64(bins)
					}
					edge := h.Lo + float64(max(x, b))*w
					if x-b > 1 || b-x > 1 || math.Abs(v-edge) > 1e-12*math.Max(math.Abs(v), w) {
						t.Fatalf("%v/%d: %v in bin %d, exactly %d", rg, bins, v, b, x)
					}
				}
			}
		}
	}
}

func TestHistogramSpecialValuesAndErrors(t *testing.T) {
	ctx := context.Background()
	b := make([]byte, 4*8)
	for i, v := range []float32{1, 2, 3, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 3, -5} {
		putF32(b[4*i:], v)
	}
	x, _ := FromBytes(b, Float32, []int{8})
	h, err := ComputeHistogram(ctx, x, 4, 1, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Histogram{Counts: []int64{1, 0, 1, 2}, NaN: 1, PosInf: 1, NegInf: 1, Below: 1}
	if err := sameHistogram(h, want); err != nil {
		t.Fatal(err)
	}
	// A copy with fewer bins (merged, say) bins by its own bin count.
	h, _ = ComputeHistogram(ctx, x, 8, 0, 8, nil)
	merged := *h
	merged.Counts = make([]int64, 4)
	if merged.Bin(2.5) != 1 || merged.Edge(1) != 2 {
		t.Errorf("copy with 4 bins: 2.5 in bin %d, edge 1 at %v", merged.Bin(2.5), merged.Edge(1))
	}
	// A Histogram built by hand (decoded from a file, say) bins the same.
	hand := &Histogram{Lo: 0, Hi: 10, Counts: []int64{0, 0, 0, 0, 0, 4, 0, 0, 0, 0}}
	if hand.Bin(5.5) != 5 || hand.Bin(10) != 9 || hand.Edge(5) != 5 || hand.Percentile(50) < 5 || hand.Percentile(50) >= 6 {
		t.Errorf("hand-built histogram: bin %d, edge %v, median %v", hand.Bin(5.5), hand.Edge(5), hand.Percentile(50))
	}
	// A constant tensor gets a range around its value.
	c, _ := FromBytes([]byte{7, 7, 7}, Uint8, []int{3})
	h, err = ComputeHistogram(ctx, c, 5, 0, 0, nil)
	if err != nil || h.Lo >= 7 || h.Hi <= 7 || h.Counts[2] != 3 {
		t.Fatalf("constant: %+v, %v", h, err)
	}
	// The [min, max] of a constant tensor as the range.
	h, err = ComputeHistogram(ctx, c, 5, 7, 7, nil)
	if err != nil || h.Lo >= 7 || h.Hi <= 7 || h.Counts[2] != 3 {
		t.Fatalf("range [7, 7]: %+v, %v", h, err)
	}
	// No finite values: range [0, 1], nothing in the bins.
	nan, _ := FromBytes(b[12:20], Float32, []int{2})
	h, err = ComputeHistogram(ctx, nan, 3, math.NaN(), 0, nil)
	if err != nil || h.Lo != 0 || h.Hi != 1 || h.Finite() != 0 || h.NaN != 1 || h.PosInf != 1 {
		t.Fatalf("non-finite: %+v, %v", h, err)
	}
	for _, c := range []struct {
		bins   int
		lo, hi float64
	}{{0, 0, 1}, {-1, 0, 1}, {MaxBins + 1, 0, 1}, {4, 2, 1}, {4, 0, math.Inf(1)}, {4, math.Inf(-1), 0}} {
		if _, err := ComputeHistogram(ctx, x, c.bins, c.lo, c.hi, nil); err == nil {
			t.Errorf("bins %d range [%v, %v] accepted", c.bins, c.lo, c.hi)
		}
	}
	if _, err := ComputeHistogram(ctx, mustComplex(t), 4, 0, 0, nil); !errors.Is(err, ErrNotNumeric) {
		t.Errorf("complex histogram: %v", err)
	}
}

func TestPercentilesWithinOneBin(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	ctx := context.Background()
	ps := []float64{0, 1, 5, 25, 50, 75, 95, 99, 100, 33.3}
	for _, dt := range numericDTypes {
		x := randomTensor(t, rng, dt, 50_000, 0.01)
		got, err := percentiles(ctx, x, ps, nil)
		if err != nil {
			t.Fatal(err)
		}
		sorted := finiteSorted(naiveValues(x))
		width := (sorted[len(sorted)-1] - sorted[0]) / PercentileBins
		if math.IsInf(width, 0) {
			width = sorted[len(sorted)-1]/PercentileBins - sorted[0]/PercentileBins
		}
		for i, p := range ps {
			want := exactPercentile(sorted, p)
			if math.Abs(got[i]-want) > width*(1+1e-9) {
				t.Errorf("%s p%v = %v, want %v ± %v", dt, p, got[i], want, width)
			}
			if (p == 0 || p == 100) && got[i] != want {
				t.Errorf("%s p%v = %v, want exactly %v", dt, p, got[i], want)
			}
		}
	}
	// Bins narrower than 1 make integer percentiles exact.
	b := make([]byte, 1001)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	x, _ := FromBytes(b, Uint8, []int{len(b)})
	got, err := percentiles(ctx, x, []float64{10, 50, 90}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sorted := finiteSorted(naiveValues(x))
	for i, p := range []float64{10, 50, 90} {
		if want := exactPercentile(sorted, p); got[i] != want {
			t.Errorf("uint8 p%v = %v, want %v", p, got[i], want)
		}
	}
	if _, err := percentiles(ctx, x, []float64{101}, nil); err == nil {
		t.Error("p101 accepted")
	}
	nan, _ := FromBytes([]byte{0, 0, 0xc0, 0x7f}, Float32, []int{1})
	got, err = percentiles(ctx, nan, []float64{50}, nil)
	if err != nil || !math.IsNaN(got[0]) {
		t.Errorf("percentile of NaN: %v, %v", got, err)
	}
}

// Past fourLaneBins bins the worker counts go to a single lane.
func TestHistogramManyBins(t *testing.T) {
	x := randomTensor(t, rand.New(rand.NewPCG(17, 18)), Float32, 200_000, 0.01)
	for _, bins := range []int{fourLaneBins, fourLaneBins + 1, 300_000} {
		h, err := ComputeHistogram(context.Background(), x, bins, -3, 5, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameHistogram(h, refHistogram(h, naiveValues(x))); err != nil {
			t.Fatalf("%d bins: %v", bins, err)
		}
	}
}
