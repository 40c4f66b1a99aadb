package tensor

import (
	"context"
	"fmt"
	"math"
)

// Histogram counts the values of a tensor in len(Counts) equal-width bins
// over [Lo, Hi]. Finite values below Lo or above Hi are counted in Below and
// Above, non-finite values in NaN, PosInf and NegInf; nothing is dropped.
//
// The binning formula, exactly as computed (in float64):
//
//	bin(v) = min(⌊(v − Lo)·S⌋, len(Counts) − 1)   for Lo ≤ v ≤ Hi
//
// where S = len(Counts)/(Hi − Lo), nudged up by ulps until (Hi − Lo)·S ≥
// len(Counts) so that no value above Hi can reach a bin. When Hi − Lo
// overflows, v, Lo and Hi are halved first; when it is so small that S
// would overflow, they are multiplied by 2^600 first (both exact). A value
// equal to Hi lands in the last bin. Bin evaluates the formula; Edge gives each bin's exact
// lower edge under it, so the edges a UI draws are the ones used.
type Histogram struct {
	Lo, Hi                            float64
	Counts                            []int64
	NaN, PosInf, NegInf, Below, Above int64

	// The formula's parameters for (paramLo, paramHi, paramBins); a copy
	// whose range or bin count was changed recomputes them.
	scale, pre                  float64
	paramLo, paramHi, paramBins float64
	integral                    bool // the values are integers (bool and integer dtypes)
}

// MaxBins bounds the number of bins of a histogram (each worker keeps its
// own counts).
const MaxBins = 1 << 20

func newHistogram(bins int, lo, hi float64) *Histogram {
	h := &Histogram{Lo: lo, Hi: hi, Counts: make([]int64, bins)}
	h.pre, h.scale = binParams(bins, lo, hi)
	h.paramLo, h.paramHi, h.paramBins = lo, hi, float64(bins)
	return h
}

// binParams computes the pre-scale and S of the binning formula.
func binParams(bins int, lo, hi float64) (pre, scale float64) {
	nb := float64(bins)
	w := hi - lo
	pre = 1
	switch {
	case math.IsInf(w, 0):
		pre = 0.5
	case math.IsInf(nb/w, 0):
		pre = 0x1p600
	}
	w = hi*pre - lo*pre
	scale = nb / w
	for w*scale < nb {
		scale = math.Nextafter(scale, math.Inf(1))
	}
	return pre, scale
}

// params returns the formula's parameters, computing them afresh for a
// Histogram built or changed outside this package.
func (h *Histogram) params() (pre, scale float64) {
	if h.scale != 0 && h.paramLo == h.Lo && h.paramHi == h.Hi && h.paramBins == float64(len(h.Counts)) {
		return h.pre, h.scale
	}
	return binParams(len(h.Counts), h.Lo, h.Hi)
}

// Bin returns the bin of v by the formula above: −1 for v below Lo (and
// for NaN), len(Counts) for v above Hi.
func (h *Histogram) Bin(v float64) int {
	bins := len(h.Counts)
	switch {
	case !(v >= h.Lo):
		return -1
	case v > h.Hi:
		return bins
	}
	pre, scale := h.params()
	t := (v*pre - h.Lo*pre) * scale
	if t >= float64(bins) {
		return bins - 1
	}
	return int(t)
}

// Edge returns the lower edge of bin i: the smallest float64 v with
// Bin(v) ≥ i. Edge(0) is Lo and Edge(len(Counts)) is Hi (the last bin
// includes Hi). Bin i holds the values in [Edge(i), Edge(i+1)).
func (h *Histogram) Edge(i int) float64 {
	bins := len(h.Counts)
	switch {
	case i <= 0:
		return h.Lo
	case i >= bins:
		return h.Hi
	}
	// Bin is monotone in v: bisect over the float64s in [Lo, Hi], ordered
	// as integers (stepping ulp by ulp could take 2^60 steps near zero).
	lo, hi := orderedKey(h.Lo), orderedKey(h.Hi)
	for lo < hi {
		mid := lo + int64(uint64(hi-lo)/2) // hi−lo may exceed MaxInt64; as uint64 it is right
		if h.Bin(fromOrderedKey(mid)) >= i {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return fromOrderedKey(lo)
}

// orderedKey maps float64s (not NaN) to int64s in the same order; ±0 both
// map to 0.
func orderedKey(f float64) int64 {
	b := math.Float64bits(f)
	if b>>63 == 0 {
		return int64(b)
	}
	return -int64(b &^ (1 << 63))
}

func fromOrderedKey(k int64) float64 {
	if k >= 0 {
		return math.Float64frombits(uint64(k))
	}
	return math.Float64frombits(uint64(-k) | 1<<63)
}

// Total is the number of values counted, finite or not.
func (h *Histogram) Total() int64 {
	return h.Finite() + h.NaN + h.PosInf + h.NegInf
}

// Finite is the number of finite values counted (in bins, Below or Above).
func (h *Histogram) Finite() int64 {
	n := h.Below + h.Above
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// ComputeHistogram counts t's values in bins equal-width bins over
// [lo, hi]. With lo == hi == 0, or either NaN, the range is the finite
// minimum and maximum, found by a first pass (a tensor without finite
// values gets [0, 1]). A range of one value (the [min, max] of a constant
// tensor) is widened around it: [v−d, v+d] with d = max(½, |v|·2^-20).
// Progress covers both passes.
func ComputeHistogram(ctx context.Context, t *Tensor, bins int, lo, hi float64, progress ProgressFunc) (*Histogram, error) {
	if err := checkNumeric(t, "histogram"); err != nil {
		return nil, err
	}
	if bins < 1 || bins > MaxBins {
		return nil, fmt.Errorf("histogram of %s: %d bins, want 1..%d", t, bins, MaxBins)
	}
	auto := (lo == 0 && hi == 0) || lo != lo || hi != hi
	if !auto && !(lo <= hi && !math.IsInf(lo, 0) && !math.IsInf(hi, 0)) {
		return nil, fmt.Errorf("histogram of %s: range [%v, %v] is not a finite interval", t, lo, hi)
	}
	if lo == hi && !auto {
		// [min, max] of a constant tensor: widen it as the automatic range
		// would.
		lo, hi = widen(lo)
	}
	n := int64(t.Len())
	passes := int64(1)
	if auto {
		passes = 2
	}
	meter := newProgressMeter(progress, passes*n)
	if auto {
		st, err := computeStats(ctx, t, meter)
		if err != nil {
			return nil, err
		}
		lo, hi = autoRange(st)
	}
	return computeHistogram(ctx, t, bins, lo, hi, meter)
}

// autoRange is the histogram range for the finite values described by st.
func autoRange(st Stats) (lo, hi float64) {
	if st.Finite == 0 {
		return 0, 1
	}
	if st.Min == st.Max {
		return widen(st.Min)
	}
	return st.Min, st.Max
}

// widen returns a range around v for a histogram of values all equal to v,
// so that they fall in the middle bin.
func widen(v float64) (lo, hi float64) {
	d := max(0.5, math.Abs(v)*0x1p-20)
	return max(v-d, -math.MaxFloat64), min(v+d, math.MaxFloat64)
}

func computeHistogram(ctx context.Context, t *Tensor, bins int, lo, hi float64, meter *progressMeter) (*Histogram, error) {
	h := newHistogram(bins, lo, hi)
	h.integral = t.dtype == Bool || t.dtype.IsInteger()
	l := newLayout(t, true)
	plan := planChunks(l.n)
	var accs []*histAcc
	accCh := make(chan *histAcc, maxChunks)
	err := parallel(ctx, plan.count, func() func(int) error {
		acc := newHistAcc(h)
		accCh <- acc
		reader := newBlockReader(&l, newValueDecoder(t), statsBlock, acc.addF32, acc.addF64)
		return func(c int) error {
			lo, hi := plan.bounds(c)
			t.prefault(&l, lo, hi)
			defer t.release(&l, lo, hi)
			return steps(ctx, lo, hi, meter, reader.read)
		}
	})
	close(accCh)
	for a := range accCh {
		accs = append(accs, a)
	}
	if err != nil {
		return nil, err
	}
	for _, a := range accs {
		a.flush()
		for i, c := range a.h.Counts {
			h.Counts[i] += c
		}
		h.NaN += a.h.NaN
		h.PosInf += a.h.PosInf
		h.NegInf += a.h.NegInf
		h.Below += a.h.Below
		h.Above += a.h.Above
	}
	return h, nil
}
