package ui

import "math"

// niceTicks returns tick values in [lo, hi] spaced by 1, 2 or 5 × 10^k so
// that there are about n of them.
func niceTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) || n < 1 {
		if lo == hi && !math.IsNaN(lo) && !math.IsInf(lo, 0) {
			return []float64{lo}
		}
		return nil
	}
	return ticksEvery(lo, hi, niceStep((hi-lo)/float64(n)))
}

// divergingTicks are the ticks of a diverging colour bar: when [lo, hi]
// spans zero they are 0 and multiples of one nice step on both sides, so
// that −a and +a both appear and read as mirror images; about n in all.
// Otherwise they are niceTicks.
func divergingTicks(lo, hi float64, n int) []float64 {
	if !(lo < 0 && hi > 0) || n < 2 || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return niceTicks(lo, hi, n)
	}
	half := max(-lo, hi)
	return ticksEvery(lo, hi, nearestNiceStep(half/float64(n/2)))
}

// nearestNiceStep is the 1, 2 or 5 × 10^k nearest raw (by ratio), so that
// each side of zero gets about as many ticks as asked, not fewer.
func nearestNiceStep(raw float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	best := mag
	for _, m := range []float64{2, 5, 10} {
		if math.Abs(math.Log(m*mag/raw)) < math.Abs(math.Log(best/raw)) {
			best = m * mag
		}
	}
	return best
}

// niceStep is the smallest of 1, 2, 5 or 10 × 10^k not below raw.
func niceStep(raw float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			return m * mag
		}
	}
	return 10 * mag
}

// ticksEvery returns the multiples of step in [lo, hi], computed as
// k·step so that rounding does not accumulate and 0 is exactly 0.
func ticksEvery(lo, hi, step float64) []float64 {
	var out []float64
	for k := math.Ceil(lo / step); k*step <= hi+step*1e-9; k++ {
		v := k * step
		if k == 0 {
			v = 0
		}
		out = append(out, v)
	}
	return out
}

// intTicks returns integer ticks in [lo, hi] (element indices).
func intTicks(lo, hi, n int) []int {
	if hi < lo {
		return nil
	}
	var out []int
	for _, v := range niceTicks(float64(lo), float64(hi), n) {
		if v == math.Trunc(v) {
			out = append(out, int(v))
		}
	}
	if len(out) == 0 {
		out = append(out, lo)
	}
	return out
}
