package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"tensorscope/tensor"
	"tensorscope/viewmodel"
)

// mosaicSource is a heatmapSource of one fixed mosaic heatmap.
type mosaicSource struct{ res *viewmodel.HeatmapImage }

func (s mosaicSource) Heatmap() *viewmodel.HeatmapImage { return s.res }
func (s mosaicSource) View() viewmodel.Window           { return s.res.View }
func (s mosaicSource) PlaneSize() (int, int)            { return s.res.PlaneRows, s.res.PlaneCols }
func (mosaicSource) SetView(viewmodel.Window)           {}
func (mosaicSource) ResetView()                         {}
func (mosaicSource) CellInfo(int, int) string           { return "" }
func (mosaicSource) Empty() bool                        { return false }

// mosaicHeatmap is the heatmap of a conv weight [o,i,3,3] shown as its
// mosaic, one cell per element.
func mosaicHeatmap(o, i int) *viewmodel.HeatmapImage {
	rows, cols := 3*o, 3*i
	g := &tensor.Grid{Rows: rows, Cols: cols, RowStep: 1, ColStep: 1, Values: make([]float64, rows*cols)}
	res := &viewmodel.HeatmapImage{Grid: g, View: viewmodel.Window{Rows: rows, Cols: cols}, PlaneRows: rows, PlaneCols: cols,
		RowBlock: 3, ColBlock: 3, Kernels: true}
	viewmodel.Colourise(res, viewmodel.Colormaps[0], viewmodel.RangeAuto, 0, 0)
	return res
}

// TestMosaicKernelsStaySquare: a mosaic six times taller than wide (the
// first convolution of MobileNetV3, [16,3,3,3]) and one eight times wider
// keep square kernels, where a plane of that shape stretches to fill.
func TestMosaicKernelsStaySquare(t *testing.T) {
	test.NewTempApp(t)
	for _, shape := range [][2]int{{16, 3}, {2, 16}} {
		h := newHeatmapView(mosaicSource{mosaicHeatmap(shape[0], shape[1])}, nil)
		_, sz := h.imageRect(fyne.NewSize(600, 600))
		kw, kh := 3*sz.Width/float32(3*shape[1]), 3*sz.Height/float32(3*shape[0])
		if kw-kh > 0.5 || kh-kw > 0.5 {
			t.Errorf("[%d,%d,3,3]: kernels drawn %.1f×%.1f pixels, want square", shape[0], shape[1], kw, kh)
		}
	}
}

// TestMosaicAxesCountChannels: the mosaic's ticks name output channels
// down the side and input channels along the bottom, not mosaic rows.
func TestMosaicAxesCountChannels(t *testing.T) {
	test.NewTempApp(t)
	h := newHeatmapView(mosaicSource{mosaicHeatmap(16, 3)}, nil)
	w := test.NewTempWindow(t, h)
	w.Resize(fyne.NewSize(600, 600))
	h.Resize(fyne.NewSize(600, 600))
	r := test.TempWidgetRenderer(t, h)
	r.Layout(h.Size())
	texts := map[string]bool{}
	for _, o := range r.Objects() {
		if tx, ok := o.(*canvas.Text); ok {
			texts[tx.Text] = true
		}
	}
	for _, want := range []string{"out 0", "out 14", "in 0", "in 2"} {
		if !texts[want] {
			t.Errorf("no tick %q among %v", want, texts)
		}
	}
	for k := range texts {
		var n int
		if _, err := fmt.Sscan(k, &n); err == nil {
			t.Errorf("a bare tick %q (a mosaic row or column, not a channel)", k)
		}
	}
}

// TestMosaicTickLabelsDoNotOverlap: a mosaic too narrow for a label per
// input channel leaves some out rather than writing them over each other.
func TestMosaicTickLabelsDoNotOverlap(t *testing.T) {
	test.NewTempApp(t)
	h := newHeatmapView(mosaicSource{mosaicHeatmap(16, 3)}, nil)
	h.Resize(fyne.NewSize(300, 260)) // kernels of about 15 pixels
	r := test.TempWidgetRenderer(t, h)
	r.Layout(h.Size())
	var boxes []fyne.Position
	var sizes []fyne.Size
	for _, o := range r.Objects() {
		if tx, ok := o.(*canvas.Text); ok {
			boxes, sizes = append(boxes, tx.Position()), append(sizes, tx.Size())
		}
	}
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			a, b := boxes[i], boxes[j]
			if a.X < b.X+sizes[j].Width && b.X < a.X+sizes[i].Width && a.Y < b.Y+sizes[j].Height && b.Y < a.Y+sizes[i].Height {
				t.Errorf("tick labels overlap at %v and %v", a, b)
			}
		}
	}
}
