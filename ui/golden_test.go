package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/viewmodel"
)

// Golden images of the panes, rendered by Fyne's software painter with its
// test theme. A failing comparison leaves the actual image in
// testdata/failed/ to compare with the master in testdata/.

func goldenWindow(t *testing.T, content fyne.CanvasObject, w, h float32) fyne.Window {
	win := test.NewTempWindow(t, content)
	win.Resize(fyne.NewSize(w, h))
	return win
}

func TestGoldenHeaderPane(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "fixture.tsr", tsrFixture(t))
	pane := newHeaderPane(nil, d)
	win := goldenWindow(t, pane, 900, 620)
	table := findTable(t, pane)
	table.Select(widget.TableCellID{Row: 5, Col: 0}) // tensor_count
	test.AssertRendersToImage(t, "header_pane.png", win.Canvas())
}

func TestGoldenMetadataPane(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "fixture.nn", nnFixture(t))
	win := goldenWindow(t, newMetaPane(nil, d), 1100, 1150)
	test.AssertRendersToImage(t, "metadata_pane.png", win.Canvas())
}

func TestGoldenTensorListAndHeatmap(t *testing.T) {
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "fixture.tsr", tsrFixture(t))
	win := goldenWindow(t, nil, 1200, 720)
	p := newTensorPane(win, d)
	win.SetContent(p.content)
	test.AssertRendersToImage(t, "tensor_list.png", win.Canvas())

	p.table.Select(widget.TableCellID{Row: 0, Col: 0})
	settle(t, q, d)
	test.AssertRendersToImage(t, "heatmap.png", win.Canvas())

	p.inspector.tabs.SelectIndex(1)
	settle(t, q, d)
	test.AssertRendersToImage(t, "histogram.png", win.Canvas())
}

// findTable returns the first table in o's tree.
func findTable(t *testing.T, o fyne.CanvasObject) *widget.Table {
	t.Helper()
	var found *widget.Table
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if found != nil {
			return
		}
		switch x := o.(type) {
		case *widget.Table:
			found = x
		case *container.Split:
			walk(x.Leading)
			walk(x.Trailing)
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(o)
	if found == nil {
		t.Fatal("no table")
	}
	return found
}
