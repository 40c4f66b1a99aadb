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
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		if math.Abs(v) < step*1e-9 {
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
