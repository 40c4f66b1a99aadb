package ui

import (
	"image"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/textfmt"
)

// The bar's gradient and its labels' widths, at the default text size (see
// themePx).
const (
	colorBarWidth  = 16
	colorBarLabels = 64
	swatchRows     = 3
)

// colorBar shows the heatmap's colour scale with value ticks, and swatches
// for the NaN, +Inf and −Inf colours.
type colorBar struct {
	widget.BaseWidget
	in heatmapHolder
}

// heatmapHolder has a heatmap to show a colour bar for: the inspector, or
// one panel of a comparison.
type heatmapHolder interface {
	Heatmap() *viewmodel.HeatmapImage
}

func newColorBar(in heatmapHolder) *colorBar {
	c := &colorBar{in: in}
	c.ExtendBaseWidget(c)
	return c
}

func (c *colorBar) CreateRenderer() fyne.WidgetRenderer {
	r := &colorBarRenderer{c: c, grad: canvas.NewImageFromImage(nil)}
	r.grad.ScaleMode = canvas.ImageScaleSmooth
	r.grad.FillMode = canvas.ImageFillStretch
	return r
}

func (c *colorBar) MinSize() fyne.Size {
	return themeSize(colorBarWidth+colorBarLabels+8, 120)
}

type colorBarRenderer struct {
	c       *colorBar
	grad    *canvas.Image
	lut     *viewmodel.Colormap
	objects []fyne.CanvasObject
}

func (r *colorBarRenderer) MinSize() fyne.Size { return r.c.MinSize() }
func (r *colorBarRenderer) Destroy()           {}
func (r *colorBarRenderer) Objects() []fyne.CanvasObject {
	return r.objects
}

func (r *colorBarRenderer) Refresh() {
	r.Layout(r.c.Size())
	canvas.Refresh(r.c)
}

func (r *colorBarRenderer) Layout(size fyne.Size) {
	r.objects = r.objects[:0]
	res := r.c.in.Heatmap()
	if res == nil {
		return
	}
	cm := res.Colormap
	if cm != r.lut {
		img := image.NewNRGBA(image.Rect(0, 0, 1, 256))
		for i := 0; i < 256; i++ {
			img.SetNRGBA(0, 255-i, cm.At(float64(i)/255))
		}
		r.grad.Image = img
		r.grad.Refresh()
		r.lut = cm
	}
	fg := theme.Color(theme.ColorNameForeground)
	textSize := theme.TextSize() * 0.8
	lineH := textSize * 1.6
	barW := themePx(colorBarWidth)
	barH := max(size.Height-swatchRows*lineH-themePx(12), themePx(20))
	top := themePx(6)
	r.grad.Move(fyne.NewPos(0, top))
	r.grad.Resize(fyne.NewSize(barW, barH))
	r.objects = append(r.objects, r.grad)
	ticks := niceTicks
	if cm.Diverging {
		ticks = divergingTicks // even steps either side of the middle colour, 0
	}
	for _, v := range ticks(res.Lo, res.Hi, 6) {
		pos := cm.Position(v, res.Lo, res.Hi)
		y := top + float32(1-pos)*barH
		r.objects = append(r.objects, tickLine(barW, y, barW+themePx(4), y, fg))
		t := canvas.NewText(textfmt.Float(v, 4), fg)
		t.TextSize = textSize
		ts := t.MinSize()
		t.Move(fyne.NewPos(barW+themePx(6), y-ts.Height/2))
		t.Resize(ts)
		r.objects = append(r.objects, t)
	}
	y := top + barH + themePx(8)
	for _, s := range []struct {
		name string
		col  color.Color
	}{{"NaN", cm.NaN}, {"+Inf", cm.PosInf}, {"−Inf", cm.NegInf}} {
		sw := canvas.NewRectangle(s.col)
		sw.StrokeColor = theme.Color(theme.ColorNameSeparator)
		sw.StrokeWidth = 1
		sw.Move(fyne.NewPos(2, y+2))
		sw.Resize(fyne.NewSize(barW-4, lineH-4))
		t := canvas.NewText(s.name, fg)
		t.TextSize = textSize
		t.Move(fyne.NewPos(barW+themePx(6), y))
		t.Resize(t.MinSize())
		r.objects = append(r.objects, sw, t)
		y += lineH
	}
}
