package viewmodel

import (
	"context"
	"math"

	"tensorscope/tensor"
)

// MaxValueBins is the most distinct values an integer tensor may span for
// its histogram to get one bin per value (labels, classes, token ids of a
// small vocabulary, quantised weights as stored).
const MaxValueBins = 512

// fewIntegerValues reports how many integers the tensor's range spans when
// that is at most MaxValueBins.
func fewIntegerValues(st tensor.Stats) (int, bool) {
	if st.Finite == 0 || math.IsNaN(st.Min) || math.IsNaN(st.Max) {
		return 0, false
	}
	span := st.Max - st.Min + 1
	if span < 1 || span > MaxValueBins {
		return 0, false
	}
	return int(span), true
}

// startIntegerHistogram counts each integer of the whole tensor's range in
// its own bin, centred on the value: bin k holds min+k.
func (in *Inspector) startIntegerHistogram(values int) {
	h := &in.hist
	t, lo := in.shown, in.summary.stats.Min-0.5
	hi := lo + float64(values)
	in.setProgress("Histogram", 0)
	h.task = StartTask(in.post, in.doc, func(ctx context.Context, progress Progress) (*tensor.Histogram, error) {
		return tensor.ComputeHistogram(ctx, t, values, lo, hi, progress)
	}, func(f float64) { in.setProgress("Histogram", f) }, func(r *tensor.Histogram, err error) {
		h.task = nil
		in.clearProgress("Histogram")
		h.result, h.err = r, err
		in.changed(ChangedHistogram)
	})
}

// OneBinPerValue reports that the histogram shown counts each integer
// value in its own bin (so the bin count setting does not apply).
func (in *Inspector) OneBinPerValue() bool {
	h := &in.hist
	if h.result == nil || in.shown == nil || !in.shown.DType().IsInteger() || h.scope != HistWhole || h.rangeMode != RangeAuto {
		return false
	}
	_, ok := fewIntegerValues(in.summary.stats)
	return ok
}
