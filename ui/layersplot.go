package ui

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel/summary"
	"tensorscope/viewmodel/textfmt"
)

// layersPlot draws a metric against the layer index, one line per role,
// with the points of flagged tensors ringed in red. Tapping near a point
// picks its tensor.
type layersPlot struct {
	widget.BaseWidget
	series   []summary.Series
	metric   summary.Metric
	onTapped func(t *summary.Tensor)

	// Set by Layout: where each point was drawn.
	drawn []drawnPoint
}

type drawnPoint struct {
	at fyne.Position
	t  *summary.Tensor
}

func newLayersPlot() *layersPlot {
	p := &layersPlot{}
	p.ExtendBaseWidget(p)
	return p
}

func (p *layersPlot) setData(s []summary.Series, m summary.Metric) {
	p.series, p.metric = s, m
	p.Refresh()
}

func (p *layersPlot) MinSize() fyne.Size { return fyne.NewSize(240, 140) }

func (p *layersPlot) Tapped(ev *fyne.PointEvent) {
	best, bestD := -1, float32(8*8)
	for i, d := range p.drawn {
		dx, dy := d.at.X-ev.Position.X, d.at.Y-ev.Position.Y
		if dd := dx*dx + dy*dy; dd <= bestD {
			best, bestD = i, dd
		}
	}
	if best >= 0 && p.onTapped != nil {
		p.onTapped(p.drawn[best].t)
	}
}

func (p *layersPlot) CreateRenderer() fyne.WidgetRenderer { return &layersPlotRenderer{p: p} }

type layersPlotRenderer struct {
	p       *layersPlot
	objects []fyne.CanvasObject
}

func (r *layersPlotRenderer) Destroy()                     {}
func (r *layersPlotRenderer) MinSize() fyne.Size           { return r.p.MinSize() }
func (r *layersPlotRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *layersPlotRenderer) Refresh() {
	r.Layout(r.p.Size())
	canvas.Refresh(r.p)
}

func (r *layersPlotRenderer) Layout(size fyne.Size) {
	p := r.p
	r.objects = r.objects[:0]
	p.drawn = p.drawn[:0]
	fg := theme.Color(theme.ColorNameForeground)
	textSize := theme.TextSize() * 0.8
	text := func(s string, x, y float32, c color.Color, align fyne.TextAlign, w float32) {
		t := canvas.NewText(s, c)
		t.TextSize = textSize
		t.Alignment = align
		ts := t.MinSize()
		if w == 0 {
			w = ts.Width
		}
		t.Move(fyne.NewPos(x, y))
		t.Resize(fyne.NewSize(w, ts.Height))
		r.objects = append(r.objects, t)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	first, last := math.MaxInt, math.MinInt
	for _, s := range p.series {
		for _, pt := range s.Points {
			lo, hi = min(lo, pt.Value), max(hi, pt.Value)
			first, last = min(first, pt.Index), max(last, pt.Index)
		}
	}
	if lo > hi {
		text("No layers to plot", 8, 8, fg, fyne.TextAlignLeading, 0)
		return
	}
	if hi == lo {
		hi, lo = hi+0.5*max(math.Abs(hi), 1e-12), lo-0.5*max(math.Abs(lo), 1e-12)
	}
	if last == first {
		last = first + 1
	}
	lineH := fyne.MeasureText("0", textSize, fyne.TextStyle{}).Height
	legendW := float32(0)
	for _, s := range p.series {
		legendW = max(legendW, fyne.MeasureText(roleLabel(s.Role), textSize, fyne.TextStyle{}).Width)
	}
	legendW = min(legendW+22, size.Width/3)
	left, top, bottom := float32(64), lineH+4, 2*lineH+4
	right := legendW + 8
	w, h := size.Width-left-right, size.Height-top-bottom
	if w < 20 || h < 20 {
		return
	}
	x := func(i int) float32 { return left + w*float32(i-first)/float32(last-first) }
	y := func(v float64) float32 { return top + h*float32(1-(v-lo)/(hi-lo)) }

	axis := canvas.NewRectangle(color.Transparent)
	axis.StrokeColor, axis.StrokeWidth = theme.Color(theme.ColorNameDisabled), 1
	axis.Move(fyne.NewPos(left, top))
	axis.Resize(fyne.NewSize(w, h))
	r.objects = append(r.objects, axis)
	text(p.metric.Label()+" across layers", left, 0, fg, fyne.TextAlignLeading, 0)
	for _, v := range niceTicks(lo, hi, 5) {
		yy := y(v)
		r.objects = append(r.objects, tickLine(left-4, yy, left, yy, fg))
		text(textfmt.Float(v, 3), 0, yy-lineH/2, fg, fyne.TextAlignTrailing, left-6)
	}
	for _, v := range niceTicks(float64(first), float64(last), 8) {
		if v != math.Trunc(v) {
			continue
		}
		xx := x(int(v))
		r.objects = append(r.objects, tickLine(xx, top+h, xx, top+h+4, fg))
		text(textfmt.Count(int64(v)), xx-20, top+h+4, fg, fyne.TextAlignCenter, 40)
	}
	text("layer index", left, top+h+lineH+2, fg, fyne.TextAlignLeading, 0)

	flag := color.NRGBA{0xe0, 0x20, 0x20, 0xff}
	for k, s := range p.series {
		c := roleColours[k%len(roleColours)]
		for i, pt := range s.Points {
			at := fyne.NewPos(x(pt.Index), y(pt.Value))
			if i > 0 {
				prev := s.Points[i-1]
				l := canvas.NewLine(c)
				l.StrokeWidth = 1.5
				l.Position1 = fyne.NewPos(x(prev.Index), y(prev.Value))
				l.Position2 = at
				r.objects = append(r.objects, l)
			}
			dot := canvas.NewCircle(c)
			rad := float32(2.5)
			if pt.Flagged {
				dot.StrokeColor, dot.StrokeWidth = flag, 2
				rad = 5
			}
			dot.Move(at.SubtractXY(rad, rad))
			dot.Resize(fyne.NewSquareSize(2 * rad))
			r.objects = append(r.objects, dot)
			p.drawn = append(p.drawn, drawnPoint{at, pt.Tensor})
		}
		ly := top + float32(k)*lineH
		if ly+lineH > top+h {
			continue
		}
		sw := canvas.NewRectangle(c)
		sw.Move(fyne.NewPos(left+w+10, ly+lineH/3))
		sw.Resize(fyne.NewSize(12, lineH/3))
		r.objects = append(r.objects, sw)
		text(roleLabel(s.Role), left+w+26, ly, fg, fyne.TextAlignLeading, legendW-18)
	}
}
