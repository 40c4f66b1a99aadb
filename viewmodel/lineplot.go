package viewmodel

import (
	"context"
	"fmt"
	"math"

	"tensorscope/tensor"
)

// MaxBarValues is the longest vector drawn as bars; longer ones are a line.
const MaxBarValues = 64

// DefaultPlotColumns bounds a line plot's columns until the view says how
// wide it is: longer vectors are reduced to one column per pixel.
const DefaultPlotColumns = 1024

// LinePlot is a vector's values against their index. A vector longer than
// the plot's columns is reduced to one column per Step values, each with
// the min..max of its finite values (the envelope) and their mean; a short
// one has one column per value (Step 1, Min = Max = Mean).
type LinePlot struct {
	N    int // values in the vector
	Axis int // the tensor axis plotted (-1 for a rank-0 tensor)
	Step int // values per column
	// Per column; NaN where a column has no finite value.
	Min, Max, Mean []float64
	// NonFinite counts the NaN and ±Inf values, which the plot cannot show.
	NonFinite int64
}

// Bars reports whether the plot is drawn as bars (short vectors).
func (p *LinePlot) Bars() bool { return p.N <= MaxBarValues }

// Columns is the number of columns plotted.
func (p *LinePlot) Columns() int { return len(p.Mean) }

// ColumnStart is the first index column c covers.
func (p *LinePlot) ColumnStart(c int) int { return c * p.Step }

type linePlotState struct {
	asHeatmap bool // the user chose the heatmap for vectors
	columns   int
	result    *LinePlot
	err       error
	task      *Task
	frame     plotFrame // where the last drawing put the data, for hovering
	frameOf   *LinePlot // the plot frame was drawn for
}

func newLinePlotState() linePlotState { return linePlotState{columns: DefaultPlotColumns} }

func (l *linePlotState) reset() { l.result, l.err = nil, nil }

// vectorAxis is the one axis of shape longer than 1, or -1 when there are
// several; a tensor of 1s has its last axis.
func vectorAxis(shape []int) int {
	axis := -1
	for a, n := range shape {
		if n > 1 {
			if axis >= 0 {
				return -1
			}
			axis = a
		}
	}
	if axis < 0 && len(shape) > 0 {
		axis = len(shape) - 1
	}
	return axis
}

// IsVector reports whether the shown tensor has one axis longer than 1
// (a bias [256], a [1,256,1,1] scale), which can be plotted as a line.
func (in *Inspector) IsVector() bool {
	return in.shown != nil && in.shown.Rank() >= 1 && vectorAxis(in.shown.Shape()) >= 0
}

// ShowsLinePlot reports whether the shown tensor is drawn as a plot of
// value against index (the default for vectors) rather than a heatmap.
func (in *Inspector) ShowsLinePlot() bool { return in.IsVector() && !in.line.asHeatmap }

// VectorAsHeatmap reports the user's choice of a heatmap for vectors.
func (in *Inspector) VectorAsHeatmap() bool { return in.line.asHeatmap }

// SetVectorAsHeatmap draws vectors as a heatmap (true) or a plot (false).
func (in *Inspector) SetVectorAsHeatmap(on bool) {
	if on == in.line.asHeatmap {
		return
	}
	in.line.asHeatmap = on
	in.startLinePlot()
}

// SetPlotColumns sets how many columns a long vector is reduced to (the
// plot's width in pixels).
func (in *Inspector) SetPlotColumns(n int) {
	n = max(n, 16)
	if n == in.line.columns {
		return
	}
	in.line.columns = n
	if r := in.line.result; r != nil && r.Step == 1 && r.N <= n {
		return // every value has its column already
	}
	in.startLinePlot()
}

// LinePlot is the latest computed plot, or nil.
func (in *Inspector) LinePlot() (*LinePlot, error) { return in.line.result, in.line.err }

// LinePlotNote says what the plot shows: "4096 values, 4 per column:
// min–max band and mean".
func (in *Inspector) LinePlotNote() string {
	p := in.line.result
	if p == nil {
		return ""
	}
	s := fmt.Sprintf("%d values", p.N)
	if p.Step > 1 {
		s += fmt.Sprintf(", %d per column: min–max band and mean", p.Step)
	}
	if p.NonFinite > 0 {
		s += fmt.Sprintf("   %d NaN or infinite not drawn", p.NonFinite)
	}
	return s
}

func (in *Inspector) startLinePlot() {
	l := &in.line
	l.task.Cancel()
	l.task = nil
	l.err = nil
	if !in.ShowsLinePlot() || in.Empty() {
		l.result = nil
		in.changed(ChangedHeatmap)
		return
	}
	t, columns := in.shown, l.columns
	in.setProgress("Plot", 0)
	l.task = StartTask(in.post, in.doc, func(ctx context.Context, progress Progress) (*LinePlot, error) {
		return computeLinePlot(ctx, t, columns, progress)
	}, func(f float64) { in.setProgress("Plot", f) }, func(p *LinePlot, err error) {
		l.task = nil
		in.clearProgress("Plot")
		l.result, l.err = p, err
		in.changed(ChangedHeatmap)
	})
}

// computeLinePlot reduces vector t to at most columns columns: its min, max
// and mean reductions, each one pass over the values (the heatmap's
// downsampling kernel, so every dtype the statistics read works).
func computeLinePlot(ctx context.Context, t *tensor.Tensor, columns int, progress Progress) (*LinePlot, error) {
	axis := vectorAxis(t.Shape())
	row, err := tensor.Plane(t, -1, axis, nil)
	if err != nil {
		return nil, err
	}
	n := int64(t.Len())
	p := &LinePlot{N: int(n), Axis: axis}
	reductions := []tensor.Reduction{tensor.ReduceMean, tensor.ReduceMin, tensor.ReduceMax}
	if n <= int64(columns) {
		reductions = reductions[:1] // one value per column: min = max = mean
	}
	for pass, r := range reductions {
		g, err := tensor.Downsample(ctx, row, 1, columns, r, func(done, _ int64) {
			progress(int64(pass)*n+done, int64(len(reductions))*n)
		})
		if err != nil {
			return nil, err
		}
		switch r {
		case tensor.ReduceMean:
			p.Mean, p.Step = g.Values, g.ColStep
			for _, counts := range [][]int64{g.NaN, g.PosInf, g.NegInf} {
				for _, c := range counts {
					p.NonFinite += c
				}
			}
		case tensor.ReduceMin:
			p.Min = g.Values
		case tensor.ReduceMax:
			p.Max = g.Values
		}
	}
	if p.Min == nil {
		p.Min, p.Max = p.Mean, p.Mean
	}
	return p, nil
}

// finite reports whether v can be drawn.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
