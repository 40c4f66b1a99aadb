package tensor

import (
	"context"
	"fmt"
	"math"
)

// percentiles is how tests check Histogram.Percentile: the finite
// values' percentiles ps (each in [0, 100]) from a histogram of
// PercentileBins over their range, exact at 0 and 100.
func percentiles(ctx context.Context, t *Tensor, ps []float64, progress ProgressFunc) ([]float64, error) {
	if err := checkNumeric(t, "percentiles"); err != nil {
		return nil, err
	}
	for _, p := range ps {
		if !(p >= 0 && p <= 100) {
			return nil, fmt.Errorf("percentiles of %s: %v is not in [0, 100]", t, p)
		}
	}
	meter := newProgressMeter(progress, 2*int64(t.Len()))
	st, err := computeStats(ctx, t, meter)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(ps))
	if st.Finite == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out, nil
	}
	lo, hi := autoRange(st)
	h, err := computeHistogram(ctx, t, PercentileBins, lo, hi, meter)
	if err != nil {
		return nil, err
	}
	for i, p := range ps {
		switch p {
		case 0:
			out[i] = st.Min
		case 100:
			out[i] = st.Max
		default:
			out[i] = min(max(h.Percentile(p), st.Min), st.Max)
		}
	}
	return out, nil
}
