package viewmodel

import (
	"context"
	"fmt"
	"image"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"tensorscope/tensor"
	"tensorscope/viewmodel/textfmt"
)

// HistScope chooses what the histogram counts.
type HistScope int

const (
	HistWhole HistScope = iota // every element of the tensor
	HistPlane                  // the heatmap's current plane
)

// HistBinChoices are the offered bin counts; powers of two divide the
// 4096-bin summary histogram, so whole-tensor histograms need no extra pass.
var HistBinChoices = []int{16, 32, 64, 128, 256, 512, 1024, 2048, 4096}

// DefaultHistBins is the initial bin count.
const DefaultHistBins = 128

type histogramState struct {
	scope     HistScope
	bins      int
	log       bool
	rangeMode RangeMode // RangeAuto or RangeManual
	lo, hi    float64
	result    *tensor.Histogram
	err       error
	task      *Task
	frame     plotFrame         // where the last drawing put the bars, for hovering
	frameOf   *tensor.Histogram // the histogram frame was drawn for
}

func newHistogramState() histogramState { return histogramState{bins: DefaultHistBins} }

func (h *histogramState) reset() { h.result, h.err = nil, nil }

// SetHistScope counts the whole tensor or the current plane.
func (in *Inspector) SetHistScope(s HistScope) {
	if s != in.hist.scope {
		in.hist.scope = s
		in.startHistogram()
	}
}

// SetHistBins sets the bin count (MinHistBins..MaxHistBins).
func (in *Inspector) SetHistBins(n int) error {
	if err := checkBins(n); err != nil {
		return err
	}
	if n != in.hist.bins {
		in.hist.bins = n
		in.startHistogram()
	}
	return nil
}

// SetHistLog draws counts on a log scale (no recomputation).
func (in *Inspector) SetHistLog(on bool) {
	in.hist.log = on
	in.changed(ChangedHistogram)
}

// SetHistRange bins over [lo, hi] (RangeManual) or the finite min..max.
func (in *Inspector) SetHistRange(mode RangeMode, lo, hi float64) error {
	var s InspectorSettings
	if err := s.SetHistRange(mode, lo, hi); err != nil {
		return err
	}
	h := &in.hist
	h.rangeMode, h.lo, h.hi = s.HistRange.Mode, s.HistRange.Lo, s.HistRange.Hi
	in.startHistogram()
	return nil
}

// Histogram is the latest histogram, or nil.
func (in *Inspector) Histogram() (*tensor.Histogram, error) { return in.hist.result, in.hist.err }

func (in *Inspector) startHistogram() {
	h := &in.hist
	h.task.Cancel()
	h.task = nil
	h.err = nil
	if in.shown == nil || in.Empty() {
		h.result = nil
		in.changed(ChangedHistogram)
		return
	}
	if h.scope == HistWhole && h.rangeMode == RangeAuto && in.shown.DType().IsInteger() {
		if !in.summary.done {
			return // the summary will call back, with the range
		}
		if values, ok := fewIntegerValues(in.summary.stats); ok {
			in.startIntegerHistogram(values)
			return
		}
	}
	// Whole tensor, automatic range: merge the summary's 4096 bins.
	if h.scope == HistWhole && h.rangeMode == RangeAuto && tensor.PercentileBins%h.bins == 0 {
		if !in.summary.done {
			return // the summary will call back
		}
		h.result = mergeBins(in.summary.hist4096, in.summary.stats, h.bins)
		in.changed(ChangedHistogram)
		return
	}
	t := in.shown
	if h.scope == HistPlane {
		if in.heat.plane == nil {
			h.result, h.err = nil, in.heat.planeErr
			in.changed(ChangedHistogram)
			return
		}
		t = in.heat.plane
	}
	bins, lo, hi := h.bins, h.lo, h.hi
	if h.rangeMode == RangeAuto {
		lo, hi = math.NaN(), math.NaN()
	}
	in.setProgress("Histogram", 0)
	h.task = StartTask(in.post, in.doc, func(ctx context.Context, progress Progress) (*tensor.Histogram, error) {
		return tensor.ComputeHistogram(ctx, t, bins, lo, hi, progress)
	}, func(f float64) { in.setProgress("Histogram", f) }, func(r *tensor.Histogram, err error) {
		h.task = nil
		in.clearProgress("Histogram")
		h.result, h.err = r, err
		in.changed(ChangedHistogram)
	})
}

// mergeBins folds a 4096-bin histogram into bins (a divisor of 4096).
// Without finite values it is an empty histogram carrying the NaN/Inf counts.
func mergeBins(h4 *tensor.Histogram, st tensor.Stats, bins int) *tensor.Histogram {
	if h4 == nil {
		return &tensor.Histogram{Counts: make([]int64, bins), NaN: st.NaN, PosInf: st.PosInf, NegInf: st.NegInf}
	}
	out := *h4
	out.Counts = make([]int64, bins)
	k := len(h4.Counts) / bins
	for i, c := range h4.Counts {
		out.Counts[i/k] += c
	}
	return &out
}

// HistogramNote reports what the histogram cannot show: NaN and Inf
// counts and finite values outside a manual range.
func (in *Inspector) HistogramNote() string {
	r := in.hist.result
	if r == nil {
		return ""
	}
	s := fmt.Sprintf("%d bins over [%s, %s]   nan %d   +inf %d   −inf %d", len(r.Counts),
		textfmt.Float(r.Lo, 6), textfmt.Float(r.Hi, 6), r.NaN, r.PosInf, r.NegInf)
	if in.OneBinPerValue() {
		s = fmt.Sprintf("one bin per value, %s to %s", textfmt.Float(r.Lo+0.5, 6), textfmt.Float(r.Hi-0.5, 6))
	}
	if r.Below+r.Above > 0 {
		s += fmt.Sprintf("   outside range: %d below, %d above", r.Below, r.Above)
	}
	return s
}

// RenderHistogram draws the latest histogram with gonum/plot at w×h pixels.
func (in *Inspector) RenderHistogram(w, h int, style PlotStyle) image.Image {
	if in.Empty() {
		return RenderEmpty(w, h, style)
	}
	r := in.hist.result
	if r == nil || len(r.Counts) == 0 || w < 1 || h < 1 {
		return nil
	}
	img, frame := drawPlotFramed(histogramPlot(r, in.hist.log, style), w, h)
	in.hist.frame, in.hist.frameOf = frame, r
	return img
}

// histogramPlot is r as a gonum plot, not yet drawn.
func histogramPlot(r *tensor.Histogram, logCounts bool, style PlotStyle) *plot.Plot {
	p := plot.New()
	style.Apply(p)
	p.X.Label.Text = "value"
	p.Y.Label.Text = "count"
	width := (r.Hi - r.Lo) / float64(len(r.Counts))
	if width <= 0 {
		width = 1
	}
	hist := &plotter.Histogram{Width: width, FillColor: style.SeriesColor(0), LogY: logCounts}
	hist.LineStyle.Width = 0
	for i, c := range r.Counts {
		lo := r.Lo + float64(i)*width
		hist.Bins = append(hist.Bins, plotter.HistogramBin{Min: lo, Max: lo + width, Weight: float64(c)})
	}
	p.Add(hist)
	var peak int64
	for _, c := range r.Counts {
		peak = max(peak, c)
	}
	if !logCounts && peak > 0 {
		p.Y.Min, p.Y.Max = 0, float64(peak)*1.08 // headroom above the tallest bar
	}
	p.Y.Tick.Marker = CountTicks{}
	if logCounts {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Label.Text = "count (log)"
	}
	p.X.Padding, p.Y.Padding = vg.Points(2), vg.Points(2)
	return p
}

// CountTicks labels a count axis with plain numbers ("25", not "25.00").
type CountTicks struct{}

func (CountTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
}
