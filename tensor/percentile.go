package tensor

import (
	"math"
)

// Percentile estimates the p-th percentile (0 ≤ p ≤ 100) of the finite
// values, interpolating linearly between order statistics as NumPy's
// default does. Order statistics are placed evenly inside their bin, so
// the estimate is within one bin width of the true percentile; values
// below Lo or above Hi are taken as Lo or Hi. For integer data a bin that
// can hold only one integer yields that integer exactly. It returns NaN for
// p outside [0, 100] or when there are no finite values.
func (h *Histogram) Percentile(p float64) float64 {
	n := h.Finite()
	if n == 0 || !(p >= 0 && p <= 100) {
		return math.NaN()
	}
	r := p / 100 * float64(n-1)
	k := int64(math.Floor(r))
	lo := h.orderStat(k)
	if frac := r - float64(k); frac > 0 && k+1 < n {
		return lo + frac*(h.orderStat(k+1)-lo)
	}
	return lo
}

// orderStat estimates the k-th smallest finite value (0-based).
func (h *Histogram) orderStat(k int64) float64 {
	if k < h.Below {
		return h.Lo
	}
	cum := h.Below
	for i, c := range h.Counts {
		if k < cum+c {
			lo, hi := h.Edge(i), h.Edge(i+1)
			if h.integral {
				first := math.Ceil(lo)
				last := first
				if i == len(h.Counts)-1 {
					last = math.Floor(hi)
				} else if next := first + 1; next < hi {
					last = next
				}
				if first == last {
					return first
				}
			}
			est := lo + (float64(k-cum)+0.5)/float64(c)*(hi-lo)
			if i < len(h.Counts)-1 {
				// Rounding must not carry the estimate into the next bin
				// (with bins narrower than an ulp it would).
				hi = math.Nextafter(hi, math.Inf(-1))
			}
			return min(max(est, lo), hi)
		}
		cum += c
	}
	return h.Hi
}

// PercentileBins is the resolution of Percentiles.
const PercentileBins = 4096
