package ui

import (
	"image"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
	"tensorscope/viewmodel/textfmt"
)

// metricBar is the graph's horizontal colour bar when nodes are coloured
// by a metric: the low value, the gradient, the high value, and a grey
// swatch for nodes without weights. Hidden for the categories.
type metricBar struct {
	widget.BaseWidget
	lo, hi *widget.Label
	grad   *canvas.Image
	grey   *canvas.Rectangle
	box    *fyne.Container
}

func newMetricBar() *metricBar {
	b := &metricBar{lo: widget.NewLabel(""), hi: widget.NewLabel("")}
	b.grad = canvas.NewImageFromImage(image.NewNRGBA(image.Rect(0, 0, 1, 1)))
	b.grad.FillMode = canvas.ImageFillStretch
	b.grey = canvas.NewRectangle(viewmodel.NoWeightColour)
	b.box = container.NewHBox(b.lo, container.NewCenter(container.NewGridWrap(fyne.NewSize(120, theme.TextSize()), b.grad)), b.hi,
		container.NewCenter(container.NewGridWrap(fyne.NewSize(theme.TextSize(), theme.TextSize()), b.grey)), widget.NewLabel("no weights"))
	b.ExtendBaseWidget(b)
	b.Hide()
	return b
}

func (b *metricBar) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(b.box) }

// set shows c's range and colours; nil hides the bar.
func (b *metricBar) set(c *viewmodel.GraphColouring) {
	if c == nil {
		b.Hide()
		return
	}
	img := image.NewNRGBA(image.Rect(0, 0, 256, 1))
	for i := range 256 {
		img.SetNRGBA(i, 0, c.Map.At(float64(i)/255))
	}
	b.grad.Image = img
	b.grad.Refresh()
	if math.IsNaN(c.Lo) {
		b.lo.SetText(c.Metric.Label() + " …")
		b.hi.SetText("")
	} else {
		b.lo.SetText(c.Metric.Label() + " " + textfmt.Float(c.Lo, 3))
		b.hi.SetText(textfmt.Float(c.Hi, 3))
	}
	b.Show()
	b.Refresh()
}

// NewColourBar is the graph's colour bar showing c, for a view drawn
// without its pane (the render command).
func NewColourBar(c *viewmodel.GraphColouring) fyne.CanvasObject {
	b := newMetricBar()
	b.set(c)
	return b
}
