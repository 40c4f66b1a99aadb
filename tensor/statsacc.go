package tensor

import "math"

// statsAcc accumulates statistics over blocks of values. Moments of the
// finite values are kept as count, mean and M2 = Σ(x−mean)², merged with
// Chan et al.'s pairwise formula. The mean is held as ref + off with ref a
// value near the data, so that merging blocks of data whose mean dwarfs
// its spread (1e9 ± 1e-6, say) subtracts nearby numbers exactly instead of
// rounding every block mean to the ulp of 1e9.
//
// float64 data near the ends of the exponent range would overflow or
// underflow M2, so blocks of such values are accumulated as x·2^exp with
// exp = −scaleShift (magnitudes of hugeValue and more) or +scaleShift (all
// below tinyValue). Accumulators in different scales merge in the smaller
// exponent: what underflows there is negligible next to the rest.
type statsAcc struct {
	n, nan, pinf, ninf, zeros int64
	mn, mx                    float64 // finite extremes, valid when n > 0
	ref, off, m2              float64
	exp                       int // the moments are of x·2^exp
}

const (
	scaleShift = 600
	// Between tinyValue and hugeValue, 2^48 squared deviations neither
	// overflow nor underflow to nothing.
	hugeValue = 0x1p480
	tinyValue = 0x1p-480
)

// scaleFor returns the exponent for a block of finite values whose largest
// magnitude is absMax.
func scaleFor(absMax float64) int {
	switch {
	case absMax >= hugeValue:
		return -scaleShift
	case absMax != 0 && absMax < tinyValue:
		return scaleShift
	}
	return 0
}

// mergeMoments folds in nb values with mean refb+offb and M2 m2b, all of
// the values times 2^exp.
func (a *statsAcc) mergeMoments(nb int64, refb, offb, m2b float64, exp int) {
	if nb == 0 {
		return
	}
	if a.n == 0 {
		a.ref, a.off, a.m2, a.exp = refb, offb, m2b, exp
		a.n = nb
		return
	}
	switch {
	case exp < a.exp:
		k := exp - a.exp
		a.ref, a.off, a.m2 = math.Ldexp(a.ref, k), math.Ldexp(a.off, k), math.Ldexp(a.m2, 2*k)
		a.exp = exp
	case exp > a.exp:
		k := a.exp - exp
		refb, offb, m2b = math.Ldexp(refb, k), math.Ldexp(offb, k), math.Ldexp(m2b, 2*k)
	}
	n := a.n + nb
	delta := (refb - a.ref) + (offb - a.off)
	fb := float64(nb) / float64(n)
	a.off += delta * fb
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
		a.mergeMoments(b.n, b.ref, b.off, b.m2, b.exp)
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
	mean, std := a.ref+a.off, math.Sqrt(max(a.m2, 0)/float64(a.n))
	mean, std = math.Ldexp(mean, -a.exp), math.Ldexp(std, -a.exp)
	// Rounding can put the mean of nearly equal values a hair outside them.
	s.Mean = min(max(mean, a.mn), a.mx)
	s.Std = std
	return s
}

// extremes tracks the running minimum and maximum inside the float32 fast
// loop. Around a centre s it keeps th = (distance from s to the nearer
// extreme)², so that a value whose squared deviation d² — which the
// variance needs anyway — is at most th cannot be a new extreme: one
// compare per element instead of two.
//
// That is exact when d = v − s is: s is a float32 (the midpoint of the
// extremes rounded to float32, so still between them) and v − s of two
// float32s is exact in float64 unless their exponents are more than 28
// apart. When v is much larger than s the rounding is too small to matter;
// when it is much smaller (|v| < tiny = 2^-27·|s|) a nonzero v next to an
// extreme near zero could round onto it. The loop counts such values
// (zeros apart) and the rare block that has any gets its extremes redone
// exactly.
type extremes struct {
	mn, mx, s, th float64
	tiny          float32
}

func newExtremes(mn, mx float64) extremes {
	e := extremes{mn: mn, mx: mx, s: float64(float32(mn + (mx-mn)/2))}
	e.tiny = float32(math.Abs(e.s) * 0x1p-27)
	e.retune()
	return e
}

func (e *extremes) retune() {
	t := min(e.s-e.mn, e.mx-e.s)
	e.th = t * t
}

// nearZero reports whether an extreme is nonzero and below tiny in
// magnitude.
func (e *extremes) nearZero() bool {
	tiny := float64(e.tiny)
	return (e.mn != 0 && math.Abs(e.mn) < tiny) || (e.mx != 0 && math.Abs(e.mx) < tiny)
}

// see is the rarely taken path; keeping it out of line keeps the loop's
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
