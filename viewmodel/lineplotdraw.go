package viewmodel

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"tensorscope/viewmodel/textfmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// RenderLinePlot draws the latest line plot with gonum/plot at w×h pixels:
// bars for a short vector, a line for a longer one, and for a reduced one
// the min–max band of each column under its mean line.
func (in *Inspector) RenderLinePlot(w, h int, style PlotStyle) image.Image {
	if in.Empty() {
		return RenderEmpty(w, h, style)
	}
	p := in.line.result
	if p == nil || p.Columns() == 0 || w < 1 || h < 1 {
		return nil
	}
	img, frame := drawPlotFramed(linePlot(p, style), w, h)
	in.line.frame, in.line.frameOf = frame, p
	return img
}

// LinePlotInfoAt describes the column under pixel x of the plot last drawn
// at w×h pixels, for the hover text: "index 12: 0.0371", or for a reduced
// plot "indices 4096–4111: -0.12 to 0.31, mean 0.021".
func (in *Inspector) LinePlotInfoAt(x float64, w, h int) string {
	f, p := in.line.frame, in.line.result
	if p == nil || p != in.line.frameOf || f.width != w || f.height != h {
		return ""
	}
	v, ok := f.valueAt(x)
	i := int(math.Round(v))
	if !ok || i < 0 || i >= p.N {
		return ""
	}
	c := i / p.Step
	if p.Step == 1 {
		return fmt.Sprintf("index %d: %s", i, textfmt.Float(p.Mean[c], 6))
	}
	first, last := p.ColumnStart(c), min(p.ColumnStart(c)+p.Step, p.N)-1
	if !finite(p.Mean[c]) {
		return fmt.Sprintf("indices %d–%d: no finite value", first, last)
	}
	return fmt.Sprintf("indices %d–%d: %s to %s, mean %s", first, last,
		textfmt.Float(p.Min[c], 4), textfmt.Float(p.Max[c], 4), textfmt.Float(p.Mean[c], 4))
}

// linePlot is lp as a gonum plot, not yet drawn.
func linePlot(lp *LinePlot, style PlotStyle) *plot.Plot {
	p := plot.New()
	style.Apply(p)
	p.X.Label.Text = "index"
	p.Y.Label.Text = "value"
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = style.Grid, style.Grid
	p.Add(grid)
	colour := style.SeriesColor(0)
	switch {
	case lp.Bars():
		addBars(p, lp, colour)
	case lp.Step > 1:
		addEnvelope(p, lp, colour)
		addLine(p, lp, colour)
	default:
		addLine(p, lp, colour)
	}
	p.X.Min, p.X.Max = -0.5, float64(lp.N)-0.5
	p.Y.Min, p.Y.Max = valueRange(lp)
	p.X.Tick.Marker = CountTicks{}
	p.X.Padding, p.Y.Padding = vg.Points(2), vg.Points(2)
	return p
}

// valueRange is the plot's value axis: the columns' min..max with a little
// room above and below, and 0 for bars, which start there.
func valueRange(lp *LinePlot) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for c := range lp.Mean {
		if finite(lp.Min[c]) {
			lo, hi = math.Min(lo, lp.Min[c]), math.Max(hi, lp.Max[c])
		}
	}
	if lo > hi {
		return -1, 1
	}
	if lp.Bars() {
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	}
	margin := 0.04 * (hi - lo)
	if margin == 0 {
		margin = math.Max(math.Abs(hi)*0.1, 1)
	}
	return lo - margin, hi + margin
}

// columnX is the index at the middle of column c.
func columnX(lp *LinePlot, c int) float64 {
	last := min(lp.ColumnStart(c)+lp.Step, lp.N) - 1
	return float64(lp.ColumnStart(c)+last) / 2
}

// addBars draws one bar from 0 to each finite value.
func addBars(p *plot.Plot, lp *LinePlot, colour color.Color) {
	var rings []plotter.XYer
	for c, v := range lp.Mean {
		if !finite(v) {
			continue
		}
		x := float64(c)
		rings = append(rings, plotter.XYs{{X: x - 0.4, Y: 0}, {X: x - 0.4, Y: v}, {X: x + 0.4, Y: v}, {X: x + 0.4, Y: 0}})
	}
	if len(rings) == 0 {
		return
	}
	bars, err := plotter.NewPolygon(rings...)
	if err != nil {
		return // unreachable: every vertex is finite
	}
	bars.Color = colour
	bars.LineStyle.Width = 0
	p.Add(bars)
}

// addLine draws the columns' means, broken where a column has no finite
// value.
func addLine(p *plot.Plot, lp *LinePlot, colour color.Color) {
	for _, run := range finiteRuns(lp.Mean) {
		pts := make(plotter.XYs, 0, run[1]-run[0])
		for c := run[0]; c < run[1]; c++ {
			pts = append(pts, plotter.XY{X: columnX(lp, c), Y: lp.Mean[c]})
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			continue
		}
		line.Color = colour
		line.Width = vg.Points(1.2)
		p.Add(line)
	}
}

// addEnvelope shades each column's min..max in a light tint of colour.
func addEnvelope(p *plot.Plot, lp *LinePlot, colour color.Color) {
	var rings []plotter.XYer
	for _, run := range finiteRuns(lp.Mean) {
		ring := make(plotter.XYs, 0, 2*(run[1]-run[0])+2)
		for c := run[0]; c < run[1]; c++ { // along the top…
			x0, x1 := float64(lp.ColumnStart(c))-0.5, float64(min(lp.ColumnStart(c)+lp.Step, lp.N))-0.5
			ring = append(ring, plotter.XY{X: x0, Y: lp.Max[c]}, plotter.XY{X: x1, Y: lp.Max[c]})
		}
		for c := run[1] - 1; c >= run[0]; c-- { // …and back along the bottom
			x0, x1 := float64(lp.ColumnStart(c))-0.5, float64(min(lp.ColumnStart(c)+lp.Step, lp.N))-0.5
			ring = append(ring, plotter.XY{X: x1, Y: lp.Min[c]}, plotter.XY{X: x0, Y: lp.Min[c]})
		}
		rings = append(rings, ring)
	}
	if len(rings) == 0 {
		return
	}
	band, err := plotter.NewPolygon(rings...)
	if err != nil {
		return
	}
	r, g, b, _ := colour.RGBA()
	band.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 90}
	band.LineStyle.Width = 0
	p.Add(band)
}

// finiteRuns are the [start, end) runs of consecutive finite values.
func finiteRuns(vs []float64) [][2]int {
	var runs [][2]int
	start := -1
	for i, v := range vs {
		switch {
		case finite(v) && start < 0:
			start = i
		case !finite(v) && start >= 0:
			runs = append(runs, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		runs = append(runs, [2]int{start, len(vs)})
	}
	return runs
}
