package ui

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"tensorscope/viewmodel"
)

// linePlotView draws a vector's plot of value against index at the size it
// is given, and asks the viewmodel for one column per pixel of its width.
type linePlotView struct {
	in      *viewmodel.Inspector
	plot    *plotRaster
	content *fyne.Container
	onHover func(string)
}

// newLinePlotView builds the plot; onHover receives what the pointer is
// over ("" when nothing).
func newLinePlotView(in *viewmodel.Inspector, onHover func(string)) *linePlotView {
	p := &linePlotView{in: in, onHover: onHover}
	p.plot = newPlotRaster(func(w, h int) image.Image { return in.RenderLinePlot(w, h, plotStyle()) }, themeSize(240, 120))
	p.content = container.New(plotWidthLayout{in}, newHoverRaster(p.plot.raster, func(x float64) {
		p.onHover(p.in.LinePlotInfoAt(x, p.plot.key[0], p.plot.key[1]))
	}))
	return p
}

func (p *linePlotView) update() { p.plot.update() }

// plotWidthLayout fills its space with the plot and tells the inspector
// how wide it is, when laid out (on the UI goroutine, not while painting).
type plotWidthLayout struct{ in *viewmodel.Inspector }

func (l plotWidthLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if size.Width >= 1 {
		l.in.SetPlotColumns(int(size.Width))
	}
}

func (plotWidthLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return objects[0].MinSize()
}
