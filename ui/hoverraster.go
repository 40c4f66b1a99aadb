package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// hoverRaster is a raster that reports the pointer's column in the
// raster's own pixels (what its generator drew), or −1 when it leaves.
type hoverRaster struct {
	widget.BaseWidget
	raster *canvas.Raster
	onMove func(pixelX float64)
}

func newHoverRaster(r *canvas.Raster, onMove func(pixelX float64)) *hoverRaster {
	h := &hoverRaster{raster: r, onMove: onMove}
	h.ExtendBaseWidget(h)
	return h
}

func (h *hoverRaster) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(h.raster) }

func (h *hoverRaster) MouseIn(ev *desktop.MouseEvent) { h.MouseMoved(ev) }

func (h *hoverRaster) MouseMoved(ev *desktop.MouseEvent) {
	scale := float32(1)
	if c := fyne.CurrentApp().Driver().CanvasForObject(h); c != nil {
		scale = c.Scale()
	}
	h.onMove(float64(ev.Position.X * scale))
}

func (h *hoverRaster) MouseOut() { h.onMove(-1) }

var _ desktop.Hoverable = (*hoverRaster)(nil)
