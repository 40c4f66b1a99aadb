package ui

import (
	"fmt"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// Gaps around the heatmap, at the default text size (see themePx).
const (
	heatTickLen   = 4
	heatLeftGap   = 56 // room for row tick labels
	heatBottomGap = 22 // room for column tick labels
	heatBarGap    = 14 // between the heatmap and its colour bar
	zoomStep      = 1.25
)

// heatmapSource is what a heatmapView draws and steers: the inspector's
// heatmap, or one panel of a comparison (whose panels share one view).
type heatmapSource interface {
	Heatmap() *viewmodel.HeatmapImage
	View() viewmodel.Window
	PlaneSize() (rows, cols int)
	SetView(viewmodel.Window)
	ResetView()
	CellInfo(row, col int) string
	// Empty reports a tensor without values, drawn as
	// viewmodel.EmptyText.
	Empty() bool
}

// heatmapView draws the inspector's heatmap image with element-index axis
// ticks; the wheel zooms around the pointer, dragging pans, double-tap
// shows the whole plane, hovering reports the cell under the pointer.
type heatmapView struct {
	widget.BaseWidget
	in      heatmapSource
	onHover func(info string)

	dragRow, dragCol float64 // fractional pan carried between drag events
}

func newHeatmapView(in heatmapSource, onHover func(string)) *heatmapView {
	h := &heatmapView{in: in, onHover: onHover}
	h.ExtendBaseWidget(h)
	return h
}

func (h *heatmapView) CreateRenderer() fyne.WidgetRenderer {
	r := &heatmapRenderer{h: h, img: canvas.NewImageFromImage(nil), frame: canvas.NewRectangle(color.Transparent),
		empty: canvas.NewText(viewmodel.EmptyText, color.Black)}
	r.empty.Alignment = fyne.TextAlignCenter
	r.img.ScaleMode = canvas.ImageScalePixels
	r.img.FillMode = canvas.ImageFillStretch
	r.frame.StrokeWidth = 1
	return r
}

func (h *heatmapView) MinSize() fyne.Size { return themeSize(200, 120) }

// imageRect is where the image goes: the area right of the row ticks and
// above the column ticks, keeping square cells unless the plane is more
// than three times wider than tall (or the reverse), when it stretches.
// A conv mosaic always keeps them: its kernels are square.
func (h *heatmapView) imageRect(size fyne.Size) (fyne.Position, fyne.Size) {
	w := size.Width - themePx(heatLeftGap+4)
	ht := size.Height - themePx(heatBottomGap+4)
	if w < 1 || ht < 1 {
		return fyne.NewPos(themePx(heatLeftGap), themePx(4)), fyne.NewSize(1, 1)
	}
	res := h.in.Heatmap()
	if res != nil {
		ratio := float64(res.View.Cols) / float64(res.View.Rows)
		if res.Kernels || (ratio <= 3 && ratio >= 1.0/3) {
			if float64(w)/float64(ht) > ratio {
				w = float32(float64(ht) * ratio)
			} else {
				ht = float32(float64(w) / ratio)
			}
		}
	}
	return fyne.NewPos(themePx(heatLeftGap), themePx(4)), fyne.NewSize(w, ht)
}

// cellAt maps a widget position to a grid cell, ok false outside the image.
func (h *heatmapView) cellAt(p fyne.Position) (row, col int, ok bool) {
	res := h.in.Heatmap()
	if res == nil {
		return 0, 0, false
	}
	pos, size := h.imageRect(h.Size())
	x, y := (p.X-pos.X)/size.Width, (p.Y-pos.Y)/size.Height
	if x < 0 || y < 0 || x >= 1 || y >= 1 {
		return 0, 0, false
	}
	return int(y * float32(res.Grid.Rows)), int(x * float32(res.Grid.Cols)), true
}

// elementAt maps a widget position to fractional plane coordinates.
func (h *heatmapView) elementAt(p fyne.Position) (row, col float64) {
	v := h.in.View()
	pos, size := h.imageRect(h.Size())
	fx := float64((p.X - pos.X) / size.Width)
	fy := float64((p.Y - pos.Y) / size.Height)
	return float64(v.Row) + fy*float64(v.Rows), float64(v.Col) + fx*float64(v.Cols)
}

func (h *heatmapView) MouseIn(ev *desktop.MouseEvent) { h.MouseMoved(ev) }

func (h *heatmapView) MouseMoved(ev *desktop.MouseEvent) {
	if h.onHover == nil {
		return
	}
	if r, c, ok := h.cellAt(ev.Position); ok {
		h.onHover(h.in.CellInfo(r, c))
	} else {
		h.onHover("")
	}
}

func (h *heatmapView) MouseOut() {
	if h.onHover != nil {
		h.onHover("")
	}
}

// Scrolled zooms around the pointer.
func (h *heatmapView) Scrolled(ev *fyne.ScrollEvent) {
	if ev.Scrolled.DY == 0 {
		return
	}
	f := zoomStep
	if ev.Scrolled.DY < 0 {
		f = 1 / zoomStep
	}
	h.zoomAt(ev.Position, f)
}

// zoomAt magnifies by f (>1 zooms in) keeping the element under p in place.
func (h *heatmapView) zoomAt(p fyne.Position, f float64) {
	v := h.in.View()
	pr, pc := h.in.PlaneSize()
	if pr == 0 {
		return
	}
	er, ec := h.elementAt(p)
	rows := int(math.Round(float64(v.Rows) / f))
	cols := int(math.Round(float64(v.Cols) / f))
	if f > 1 { // always make progress when zooming in
		rows, cols = min(rows, max(v.Rows-1, 1)), min(cols, max(v.Cols-1, 1))
	} else {
		rows, cols = max(rows, min(v.Rows+1, pr)), max(cols, min(v.Cols+1, pc))
	}
	fy := (er - float64(v.Row)) / float64(v.Rows)
	fx := (ec - float64(v.Col)) / float64(v.Cols)
	h.in.SetView(viewmodel.Window{
		Row: int(math.Round(er - fy*float64(rows))), Col: int(math.Round(ec - fx*float64(cols))),
		Rows: rows, Cols: cols,
	})
}

// zoomCentre zooms around the middle of the image (buttons, keys).
func (h *heatmapView) zoomCentre(f float64) {
	pos, size := h.imageRect(h.Size())
	h.zoomAt(fyne.NewPos(pos.X+size.Width/2, pos.Y+size.Height/2), f)
}

func (h *heatmapView) Dragged(ev *fyne.DragEvent) {
	v := h.in.View()
	_, size := h.imageRect(h.Size())
	h.dragRow -= float64(ev.Dragged.DY) / float64(size.Height) * float64(v.Rows)
	h.dragCol -= float64(ev.Dragged.DX) / float64(size.Width) * float64(v.Cols)
	dr, dc := int(h.dragRow), int(h.dragCol)
	if dr == 0 && dc == 0 {
		return
	}
	h.dragRow -= float64(dr)
	h.dragCol -= float64(dc)
	v.Row += dr
	v.Col += dc
	h.in.SetView(v)
}

func (h *heatmapView) DragEnd() { h.dragRow, h.dragCol = 0, 0 }

func (h *heatmapView) DoubleTapped(*fyne.PointEvent) { h.in.ResetView() }

var (
	_ desktop.Hoverable   = (*heatmapView)(nil)
	_ fyne.Scrollable     = (*heatmapView)(nil)
	_ fyne.Draggable      = (*heatmapView)(nil)
	_ fyne.DoubleTappable = (*heatmapView)(nil)
)

type heatmapRenderer struct {
	h       *heatmapView
	img     *canvas.Image
	frame   *canvas.Rectangle
	empty   *canvas.Text // shown alone for a tensor without values
	ticks   []fyne.CanvasObject
	objects []fyne.CanvasObject
}

func (r *heatmapRenderer) Layout(size fyne.Size) {
	if r.h.in.Empty() {
		ts := r.empty.MinSize()
		r.empty.Move(fyne.NewPos((size.Width-ts.Width)/2, (size.Height-ts.Height)/2))
		r.empty.Resize(ts)
		r.objects = append(r.objects[:0], r.empty)
		return
	}
	pos, sz := r.h.imageRect(size)
	r.img.Move(pos)
	r.img.Resize(sz)
	r.frame.Move(pos)
	r.frame.Resize(sz)
	r.buildTicks(pos, sz)
}

func (r *heatmapRenderer) MinSize() fyne.Size { return r.h.MinSize() }

func (r *heatmapRenderer) Refresh() {
	res := r.h.in.Heatmap()
	if res != nil {
		r.img.Image = res.Image
	} else {
		r.img.Image = nil
	}
	r.frame.StrokeColor = theme.Color(theme.ColorNameSeparator)
	r.empty.Color = theme.Color(theme.ColorNameForeground)
	r.Layout(r.h.Size())
	r.img.Refresh()
	r.frame.Refresh()
	r.empty.Refresh()
}

func (r *heatmapRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *heatmapRenderer) Destroy() {}

// buildTicks labels rows on the left and columns below with element
// indices at nice steps, placed on the grid cell holding that element.
func (r *heatmapRenderer) buildTicks(pos fyne.Position, sz fyne.Size) {
	r.ticks = r.ticks[:0]
	res := r.h.in.Heatmap()
	if res != nil {
		fg := theme.Color(theme.ColorNameForeground)
		textSize := theme.TextSize() * 0.8
		g, v := res.Grid, res.View
		if res.Kernels {
			r.kernelTicks(res, pos, sz, fg, textSize)
			r.objects = append(append(r.objects[:0], r.img), separators(res, pos, sz)...)
			r.objects = append(append(r.objects, r.frame), r.ticks...)
			return
		}
		rows := intTicks(v.Row, v.Row+v.Rows-1, max(2, int(sz.Height/40)))
		for _, e := range rows {
			cell := float32((e-v.Row)/g.RowStep) + 0.5
			y := pos.Y + cell/float32(g.Rows)*sz.Height
			r.ticks = append(r.ticks, tickLine(pos.X-themePx(heatTickLen), y, pos.X, y, fg))
			t := canvas.NewText(fmt.Sprint(e), fg)
			t.TextSize = textSize
			t.Alignment = fyne.TextAlignTrailing
			ts := t.MinSize()
			t.Move(fyne.NewPos(pos.X-themePx(heatTickLen+2)-ts.Width, y-ts.Height/2))
			t.Resize(ts)
			r.ticks = append(r.ticks, t)
		}
		cols := intTicks(v.Col, v.Col+v.Cols-1, max(2, int(sz.Width/70)))
		for _, e := range cols {
			cell := float32((e-v.Col)/g.ColStep) + 0.5
			x := pos.X + cell/float32(g.Cols)*sz.Width
			y := pos.Y + sz.Height
			r.ticks = append(r.ticks, tickLine(x, y, x, y+themePx(heatTickLen), fg))
			t := canvas.NewText(fmt.Sprint(e), fg)
			t.TextSize = textSize
			ts := t.MinSize()
			t.Move(fyne.NewPos(x-ts.Width/2, y+themePx(heatTickLen)))
			t.Resize(ts)
			r.ticks = append(r.ticks, t)
		}
	}
	r.objects = append(append(r.objects[:0], r.img), separators(res, pos, sz)...)
	r.objects = append(append(r.objects, r.frame), r.ticks...)
}

// kernelTicks labels a conv mosaic's rows by output channel and its
// columns by input channel, each tick at the middle of its kernels.
func (r *heatmapRenderer) kernelTicks(res *viewmodel.HeatmapImage, pos fyne.Position, sz fyne.Size, fg color.Color, textSize float32) {
	g, v := res.Grid, res.View
	label := func(text string) *canvas.Text {
		t := canvas.NewText(text, fg)
		t.TextSize = textSize
		t.Resize(t.MinSize())
		return t
	}
	// Channel k's kernels span elements [k·block, (k+1)·block); the image
	// covers cells·step elements from first.
	centre := func(k, block, first, step, cells int) (float32, bool) {
		f := (float32(k*block) + float32(block)/2 - float32(first)) / float32(step*cells)
		return f, f >= 0 && f <= 1
	}
	// Labels that would touch the one before are left out (a narrow
	// mosaic of three input channels has room for one or two).
	gap := themePx(4)
	lastBottom := float32(math.Inf(-1))
	outs := intTicks(v.Row/res.RowBlock, (v.Row+v.Rows-1)/res.RowBlock, max(2, int(sz.Height/40)))
	for _, k := range outs {
		f, ok := centre(k, res.RowBlock, v.Row, g.RowStep, g.Rows)
		if !ok {
			continue
		}
		y := pos.Y + f*sz.Height
		t := label(fmt.Sprintf("out %d", k))
		if y-t.Size().Height/2 < lastBottom+gap {
			continue
		}
		lastBottom = y + t.Size().Height/2
		t.Move(fyne.NewPos(pos.X-themePx(heatTickLen+2)-t.Size().Width, y-t.Size().Height/2))
		r.ticks = append(r.ticks, tickLine(pos.X-themePx(heatTickLen), y, pos.X, y, fg), t)
	}
	lastRight := float32(math.Inf(-1))
	ins := intTicks(v.Col/res.ColBlock, (v.Col+v.Cols-1)/res.ColBlock, max(2, int(sz.Width/56)))
	for _, k := range ins {
		f, ok := centre(k, res.ColBlock, v.Col, g.ColStep, g.Cols)
		if !ok {
			continue
		}
		x, y := pos.X+f*sz.Width, pos.Y+sz.Height
		t := label(fmt.Sprintf("in %d", k))
		if x-t.Size().Width/2 < lastRight+gap {
			continue
		}
		lastRight = x + t.Size().Width/2
		t.Move(fyne.NewPos(x-t.Size().Width/2, y+themePx(heatTickLen)))
		r.ticks = append(r.ticks, tickLine(x, y, x, y+themePx(heatTickLen), fg), t)
	}
}

func tickLine(x1, y1, x2, y2 float32, c color.Color) *canvas.Line {
	l := canvas.NewLine(c)
	l.StrokeWidth = 1
	l.Position1 = fyne.NewPos(x1, y1)
	l.Position2 = fyne.NewPos(x2, y2)
	return l
}

// heatmapArea places the colour bar just right of the heatmap image, which
// keeps square cells and so does not always fill its space.
type heatmapArea struct {
	h   *heatmapView
	bar *colorBar
}

// newHeatmapArea lays out h and its colour bar side by side.
func newHeatmapArea(h *heatmapView, bar *colorBar) *fyne.Container {
	return container.New(&heatmapArea{h: h, bar: bar}, h, bar)
}

func (a *heatmapArea) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	barW := a.bar.MinSize().Width
	heatSize := fyne.NewSize(max(size.Width-barW-themePx(heatBarGap), 1), size.Height)
	a.h.Resize(heatSize)
	a.h.Move(fyne.NewPos(0, 0))
	pos, img := a.h.imageRect(heatSize)
	a.bar.Move(fyne.NewPos(pos.X+img.Width+themePx(heatBarGap), 0))
	a.bar.Resize(fyne.NewSize(barW, size.Height))
}

func (a *heatmapArea) MinSize(_ []fyne.CanvasObject) fyne.Size {
	h, b := a.h.MinSize(), a.bar.MinSize()
	return fyne.NewSize(h.Width+themePx(heatBarGap)+b.Width, max(h.Height, b.Height))
}
