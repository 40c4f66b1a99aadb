package compare

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"tensorscope/viewmodel"
	"tensorscope/viewmodel/textfmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"tensorscope/tensor"
)

// HistBins is the bin count of the comparison's histograms.
const HistBins = 64

// binCounts is a histogram over [Lo, Hi] in equal bins; values outside
// (and non-finite ones) are not counted.
type binCounts struct {
	Lo, Hi float64
	Counts []int64
}

// pairHistograms are A and B over their common finite range, and a−b over
// ±max|a−b|.
type pairHistograms struct {
	a, b, diff *binCounts
}

func (v *PairView) startHistograms() {
	v.histTask.Cancel()
	v.histTask = nil
	if v.Empty() {
		v.hist, v.histErr = pairHistograms{}, nil
		v.c.changed(ChangedHistograms)
		return
	}
	a, b := v.a, v.b
	maxAbs, ok := v.figures.MaxAbs()
	if !ok {
		maxAbs = 0
	}
	v.c.setProgress("Histograms", 0)
	v.histTask = startTask(v, func(ctx context.Context, progress viewmodel.Progress) (pairHistograms, error) {
		return computePairHistograms(ctx, a, b, maxAbs, progress)
	}, func(f float64) { v.c.setProgress("Histograms", f) }, func(h pairHistograms, err error) {
		v.histTask = nil
		v.c.clearProgress("Histograms")
		v.hist, v.histErr = h, err
		v.c.changed(ChangedHistograms)
	})
}

// computePairHistograms bins both tensors and their difference in one
// pass over the values (after a statistics pass for the common range).
func computePairHistograms(ctx context.Context, a, b *tensor.Tensor, maxAbs float64, progress viewmodel.Progress) (pairHistograms, error) {
	sa, err := tensor.ComputeStats(ctx, a, nil)
	if err != nil {
		return pairHistograms{}, err
	}
	sb, err := tensor.ComputeStats(ctx, b, nil)
	if err != nil {
		return pairHistograms{}, err
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range []tensor.Stats{sa, sb} {
		if s.Finite > 0 {
			lo, hi = math.Min(lo, s.Min), math.Max(hi, s.Max)
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	if maxAbs == 0 {
		maxAbs = 1
	}
	h := pairHistograms{a: newBinCounts(lo, hi), b: newBinCounts(lo, hi), diff: newBinCounts(-maxAbs, maxAbs)}
	n := int64(a.Len())
	const chunk = 1 << 16
	x, y := make([]float64, min(n, chunk)), make([]float64, min(n, chunk))
	for start := int64(0); start < n; start += chunk {
		if err := ctx.Err(); err != nil {
			return pairHistograms{}, err
		}
		k := min(chunk, n-start)
		if err := a.ReadFloat64s(start, x[:k]); err != nil {
			return pairHistograms{}, err
		}
		if err := b.ReadFloat64s(start, y[:k]); err != nil {
			return pairHistograms{}, err
		}
		for i := range x[:k] {
			h.a.add(x[i])
			h.b.add(y[i])
			h.diff.add(x[i] - y[i])
		}
		if progress != nil {
			progress(start+k, n)
		}
	}
	return h, nil
}

func newBinCounts(lo, hi float64) *binCounts {
	return &binCounts{Lo: lo, Hi: hi, Counts: make([]int64, HistBins)}
}

func (h *binCounts) add(v float64) {
	if !(v >= h.Lo && v <= h.Hi) { // also drops NaN
		return
	}
	i := int((v - h.Lo) / (h.Hi - h.Lo) * float64(len(h.Counts)))
	h.Counts[min(i, len(h.Counts)-1)]++
}

// HistogramsReady reports that the histograms are computed.
func (v *PairView) HistogramsReady() bool { return v.hist.a != nil }

// HistogramErr is why the histograms could not be computed, or nil.
func (v *PairView) HistogramErr() error { return v.histErr }

// RenderOverlay draws the A and B histograms over one range, B's bars
// over A's, both translucent, with a legend.
func (v *PairView) RenderOverlay(w, h int, style viewmodel.PlotStyle) image.Image {
	if v.Empty() {
		return viewmodel.RenderEmpty(w, h, style)
	}
	if v.hist.a == nil || w < 1 || h < 1 {
		return nil
	}
	p := plot.New()
	style.Apply(p)
	p.X.Label.Text = "value"
	p.Y.Label.Text = "count"
	for i, s := range []struct {
		name string
		h    *binCounts
	}{{"A", v.hist.a}, {"B", v.hist.b}} {
		bars := histogramBars(s.h, translucent(style.SeriesColor(i)))
		p.Add(bars)
		p.Legend.Add(s.name, bars)
	}
	p.Legend.Top = true
	p.Y.Tick.Marker = viewmodel.CountTicks{}
	p.X.Padding, p.Y.Padding = vg.Points(2), vg.Points(2)
	return viewmodel.DrawPlot(p, w, h)
}

// RenderDiffHistogram draws the histogram of a−b.
func (v *PairView) RenderDiffHistogram(w, h int, style viewmodel.PlotStyle) image.Image {
	if v.Empty() {
		return viewmodel.RenderEmpty(w, h, style)
	}
	if v.hist.diff == nil || w < 1 || h < 1 {
		return nil
	}
	p := plot.New()
	style.Apply(p)
	p.X.Label.Text = "a − b"
	p.Y.Label.Text = "count"
	p.Add(histogramBars(v.hist.diff, style.SeriesColor(2)))
	p.Y.Tick.Marker = viewmodel.CountTicks{}
	p.X.Padding, p.Y.Padding = vg.Points(2), vg.Points(2)
	return viewmodel.DrawPlot(p, w, h)
}

// HistogramNote says what the histograms leave out.
func (v *PairView) HistogramNote() string {
	if v.histErr != nil {
		return v.histErr.Error()
	}
	if v.hist.a == nil {
		return ""
	}
	return fmt.Sprintf("A and B over [%s, %s], a − b over ±%s (max |a−b|); NaN and ±Inf are not binned",
		textfmt.Float(v.hist.a.Lo, 4), textfmt.Float(v.hist.a.Hi, 4), textfmt.Float(v.hist.diff.Hi, 4))
}

func histogramBars(h *binCounts, fill color.Color) *plotter.Histogram {
	width := (h.Hi - h.Lo) / float64(len(h.Counts))
	bars := &plotter.Histogram{Width: width, FillColor: fill}
	bars.LineStyle.Width = 0
	for i, c := range h.Counts {
		lo := h.Lo + float64(i)*width
		bars.Bins = append(bars.Bins, plotter.HistogramBin{Min: lo, Max: lo + width, Weight: float64(c)})
	}
	return bars
}

func translucent(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 150}
}
