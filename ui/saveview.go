package ui

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/widget"

	"tensorscope/formats"
)

// File ▸ Save View as PNG… writes what the current pane shows — the
// heatmap or mosaic with its colour bar and axes, the histogram, a
// vector's plot, the comparison, the graph with its status line, the
// Overview — as it is laid out on the screen, at the screen's resolution or
// a multiple of it. It is drawn by Fyne's software painter, the painter
// `tensorscope render` captures its views with.

// viewScales are the choices of pixels per screen unit.
var viewScales = []string{"1× (as on the screen)", "2×", "3×", "4×"}

// maxViewPixels caps a saved view (about 64 megapixels, 256 MB of RGBA).
const maxViewPixels = 64 << 20

// shownView is the object that draws what the current tab's pane shows,
// and a word for the file name; nil when there is nothing to save.
func (mw *MainWindow) shownView() (fyne.CanvasObject, string) {
	if t := mw.compareOf(mw.tabs.Selected()); t != nil {
		if t.pair != nil && t.pair.content != nil && t.pair.content.Visible() {
			return t.pair.content, "comparison"
		}
		return t.content, "comparison"
	}
	dt := mw.current()
	if dt == nil || dt.doc == nil || dt.panes == nil || dt.panes.Selected() == nil {
		return nil, ""
	}
	sel := dt.panes.Selected()
	switch {
	case dt.graph != nil && sel.Content == dt.graph.content:
		return dt.graph.viewArea, "graph"
	case sel == dt.tensorsAt:
		return dt.tensors.inspector.shownView()
	}
	return sel.Content, strings.ToLower(sel.Text)
}

// shownView is the inspector's view on its selected tab: the heatmap (or
// mosaic) beside its colour bar, or the vector's plot, the histogram, or
// the tab itself (values, facts).
func (v *inspectorView) shownView() (fyne.CanvasObject, string) {
	switch v.tabs.SelectedIndex() {
	case 0:
		if v.heatArea.Visible() {
			return v.heatArea, "heatmap"
		}
		return v.plot.content, "plot"
	case 1:
		return v.hist.plot.raster, "histogram"
	}
	return v.tabs.Selected().Content, strings.ToLower(v.tabs.Selected().Text)
}

// viewMargin is the window's background kept round a saved view: text
// that reaches past the view's edge (the colour bar's last legend line)
// is drawn whole, as in the window.
const viewMargin = 8

// captureSize is the size in pixels of obj's capture at scale.
func captureSize(obj fyne.CanvasObject, scale float32) (w, h int) {
	size := obj.Size().AddWidthHeight(2*viewMargin, 2*viewMargin)
	return int(math.Ceil(float64(size.Width * scale))), int(math.Ceil(float64(size.Height * scale)))
}

// CaptureObject draws obj as it is laid out now, inside a margin of the
// theme's background, at scale pixels per unit, with Fyne's software
// painter, and puts it back in place.
func CaptureObject(obj fyne.CanvasObject, scale float32) image.Image {
	pos, size := obj.Position(), obj.Size()
	c := software.NewCanvas()
	c.SetPadded(false)
	c.SetScale(scale)
	full := size.AddWidthHeight(2*viewMargin, 2*viewMargin)
	c.Resize(full)
	c.SetContent(container.NewWithoutLayout(obj))
	c.Resize(full)
	obj.Move(fyne.NewPos(viewMargin, viewMargin))
	obj.Resize(size)
	img := c.Capture()
	c.SetContent(canvas.NewRectangle(color.Transparent))
	obj.Move(pos)
	obj.Resize(size)
	return img
}

// SaveViewPNG writes img to path as a PNG through a temporary file
// renamed into place.
func SaveViewPNG(path string, img image.Image) error {
	return formats.WriteFileAtomic(path, func(w io.Writer) error { return encodeViewPNG(w, img) })
}

func encodeViewPNG(w io.Writer, img image.Image) error {
	return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, img)
}

// saveView asks for a scale and a file, and writes the current pane's
// view there.
func (mw *MainWindow) saveView() {
	obj, what := mw.shownView()
	if obj == nil || obj.Size().Width < 1 || obj.Size().Height < 1 {
		showError(errors.New("There is no view to save: open a file, and show a heatmap, histogram, plot, graph or comparison."), mw.win)
		return
	}
	screen := mw.win.Canvas().Scale()
	pixels := func(i int) (int, int) { return captureSize(obj, screen*float32(i+1)) }
	info := widget.NewLabel("")
	scaleSel := widget.NewSelect(viewScales, func(string) {})
	scaleSel.OnChanged = func(string) {
		w, h := pixels(scaleSel.SelectedIndex())
		info.SetText(fmt.Sprintf("%s×%s pixels", formats.GroupDigits(int64(w)), formats.GroupDigits(int64(h))))
	}
	scaleSel.SetSelectedIndex(0)
	base := "view"
	if dt := mw.current(); dt != nil && dt.doc != nil {
		base = strings.TrimSuffix(dt.doc.Title(), filepath.Ext(dt.doc.Title()))
	} else if t := mw.compareOf(mw.tabs.Selected()); t != nil {
		base = strings.TrimSuffix(t.item.Text, filepath.Ext(t.item.Text))
	}
	name := strings.NewReplacer("/", "-", " ", "_").Replace(base) + "-" + what + ".png"
	form := dialog.NewForm("Save View as PNG", "Choose File…", "Cancel", []*widget.FormItem{
		widget.NewFormItem("Scale", scaleSel), widget.NewFormItem("Size", info)}, func(ok bool) {
		if !ok {
			return
		}
		i := scaleSel.SelectedIndex()
		if w, h := pixels(i); w*h > maxViewPixels {
			showError(fmt.Errorf("At %s the view is %s×%s pixels, more than %d megapixels: choose a smaller scale.",
				viewScales[i], formats.GroupDigits(int64(w)), formats.GroupDigits(int64(h)), maxViewPixels>>20), mw.win)
			return
		}
		scale := screen * float32(i+1)
		mw.saveFile("Save view as PNG", name, []fileFilter{{Name: "PNG image", Extensions: []string{"png"}}}, func(path string) {
			if !strings.EqualFold(filepath.Ext(path), ".png") {
				path += ".png"
			}
			mw.writeView(obj, scale, path)
		})
	}, mw.win)
	form.Show()
}

// writeView captures obj at scale on the UI goroutine (it is a widget
// tree) and encodes and writes it on another.
func (mw *MainWindow) writeView(obj fyne.CanvasObject, scale float32, path string) {
	img := CaptureObject(obj, scale)
	go func() {
		err := SaveViewPNG(path, img)
		fyne.Do(func() {
			b := img.Bounds()
			showExported(mw.win, "View saved", path, fmt.Sprintf("The image is %s×%s pixels.",
				formats.GroupDigits(int64(b.Dx())), formats.GroupDigits(int64(b.Dy()))), err)
		})
	}()
}
