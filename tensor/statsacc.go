package tensor

import "math"

// statsAcc accumulates statistics over blocks of values. Moments of the
// finite values are kept as (count, mean, M2 = Σ(x−mean)²) and merged with
// Chan et al.'s pairwise formula, which is stable in any merge order.
//
// float64 data with magnitudes near the top of the range would overflow M2,
// so such blocks are accumulated as x·2^-scaleShift (scaled = true); the
// tiniest values lose precision there, which cannot matter next to values
// of 2^480 and more.
type statsAcc struct {
	n, nan, pinf, ninf, zeros int64
	mn, mx                    float64 // finite extremes, valid when n > 0
	mean, m2                  float64
	scaled                    bool
}

const (
	scaleShift = 600
	// hugeValue bounds the magnitudes accumulated unscaled: with |x| below
	// it, 2^48 squared deviations cannot overflow.
	hugeValue = 0x1p480
)

var (
	scaleDown  = math.Ldexp(1, -scaleShift)
	scaleDown2 = math.Ldexp(1, -2*scaleShift)
)

// mergeMoments folds in nb values with mean mb and M2 m2b (scaled as said).
func (a *statsAcc) mergeMoments(nb int64, mb, m2b float64, scaled bool) {
	if nb == 0 {
		return
	}
	if a.scaled != scaled {
		if scaled {
			a.mean *= scaleDown
			a.m2 *= scaleDown2
			a.scaled = true
		} else {
			mb *= scaleDown
			m2b *= scaleDown2
		}
	}
	if a.n == 0 {
		a.n, a.mean, a.m2 = nb, mb, m2b
		return
	}
	n := a.n + nb
	delta := mb - a.mean
	fb := float64(nb) / float64(n)
	a.mean += delta * fb
	a.m2 += m2b + delta*delta*float64(a.n)*fb
	a.n = n
}

func (a *statsAcc) mergeExtremes(mn, mx float64) {
	if a.n == 0 {
		a.mn, a.mx = mn, mx
		return
	}
	a.mn = min(a.mn, mn)
	a.mx = max(a.mx, mx)
}

// merge folds b into a.
func (a *statsAcc) merge(b *statsAcc) {
	a.nan += b.nan
	a.pinf += b.pinf
	a.ninf += b.ninf
	a.zeros += b.zeros
	if b.n > 0 {
		a.mergeExtremes(b.mn, b.mx)
		a.mergeMoments(b.n, b.mean, b.m2, b.scaled)
	}
}

func (a *statsAcc) stats() Stats {
	s := Stats{
		Count:  a.n + a.nan + a.pinf + a.ninf,
		Finite: a.n, NaN: a.nan, PosInf: a.pinf, NegInf: a.ninf, Zeros: a.zeros,
	}
	if a.n == 0 {
		nan := math.NaN()
		s.Min, s.Max, s.Mean, s.Std, s.AbsMax = nan, nan, nan, nan, nan
		return s
	}
	s.Min, s.Max = a.mn, a.mx
	s.AbsMax = max(math.Abs(a.mn), math.Abs(a.mx))
	mean, std := a.mean, math.Sqrt(max(a.m2, 0)/float64(a.n))
	if a.scaled {
		mean = math.Ldexp(mean, scaleShift)
		std = math.Ldexp(std, scaleShift)
	}
	// Rounding can put the mean of nearly equal values a hair outside them.
	s.Mean = min(max(mean, a.mn), a.mx)
	s.Std = std
	return s
}

// extremes tracks the running minimum and maximum inside the fast loops.
// Around a centre s it keeps th = (distance from s to the nearer extreme)²,
// so that a value whose squared deviation d² — which the variance needs
// anyway — is at most th cannot be a new extreme: one compare per element
// instead of two.
type extremes struct {
	mn, mx, s, th float64
}

func newExtremes(mn, mx float64) extremes {
	e := extremes{mn: mn, mx: mx, s: mn + (mx-mn)/2}
	e.retune()
	return e
}

func (e *extremes) retune() {
	t := min(e.s-e.mn, e.mx-e.s)
	e.th = t * t
}

// see is the rarely taken path; keeping it out of line keeps the loops'
// registers free.
//
//go:noinline
func (e *extremes) see(v float64) float64 {
	if v < e.mn {
		e.mn = v
	}
	if v > e.mx {
		e.mx = v
	}
	e.retune()
	return e.th
}

// redoThreshold: a block's shifted sums lose about log2(n·mean_d²/M2) bits
// to cancellation; past 2^12 (12 of 53 bits) the block is recomputed with
// an exact two-pass loop instead.
const redoThreshold = 1 << 12
