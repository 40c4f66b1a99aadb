package ui

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"tensorscope/viewmodel"
)

// TestSaveViewHeatmap: Save View draws the inspector's heatmap with its
// colour bar and axes as laid out in the window, at the screen's
// resolution or twice it, and writes it through a renamed temporary file.
func TestSaveViewHeatmap(t *testing.T) {
	dt, _ := openTab(t, 1000, 700, "fixture.tsr", tsrFixture(t))
	obj, what := dt.mw.shownView()
	if what != "heatmap" || obj != dt.tensors.inspector.heatArea {
		t.Fatalf("the Tensors pane's view is %q (%T), want the heatmap area", what, obj)
	}
	size := obj.Size()
	img := CaptureObject(obj, 1)
	if w, h := captureSize(obj, 1); img.Bounds().Dx() != w || img.Bounds().Dy() != h || w < int(size.Width)+2*viewMargin {
		t.Errorf("at 1× the image is %v for a view of %v", img.Bounds(), size)
	}
	test.AssertImageMatches(t, "saveview_heatmap.png", img)
	if obj.Size() != size || obj.Position() != dt.tensors.inspector.heatArea.Position() {
		t.Errorf("the view was not put back: size %v, want %v", obj.Size(), size)
	}
	double := CaptureObject(obj, 2)
	if w, h := captureSize(obj, 2); double.Bounds().Dx() != w || double.Bounds().Dy() != h || w < int(2*size.Width) {
		t.Errorf("at 2× the image is %v for a view of %v", double.Bounds(), size)
	}
	path := filepath.Join(t.TempDir(), "view.png")
	if err := SaveViewPNG(path, double); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil || cfg.Width != double.Bounds().Dx() || cfg.Height != double.Bounds().Dy() {
		t.Errorf("the file: %v, %d×%d", err, cfg.Width, cfg.Height)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestSaveViewHistogramAndGraph: the histogram tab saves its histogram;
// a model's Graph pane saves the graph with its status line, not the
// toolbar or the properties.
func TestSaveViewHistogramAndGraph(t *testing.T) {
	dt, _ := openTab(t, 1000, 700, "fixture.tsr", tsrFixture(t))
	dt.tensors.inspector.tabs.SelectIndex(1)
	obj, what := dt.mw.shownView()
	if what != "histogram" {
		t.Fatalf("the histogram tab's view is %q", what)
	}
	test.AssertImageMatches(t, "saveview_histogram.png", CaptureObject(obj, 1))

	model, q := openTab(t, 1000, 700, "fixture.nn", nnFixture(t))
	for _, item := range model.panes.Items {
		if item.Text == "Graph" {
			model.panes.Select(item)
		}
	}
	waitGraph(t, model, q)
	obj, what = model.mw.shownView()
	if what != "graph" || obj != model.graph.viewArea {
		t.Fatalf("the Graph pane's view is %q", what)
	}
	img := CaptureObject(obj, 1)
	test.AssertImageMatches(t, "saveview_graph.png", img)
	if img.Bounds().Dx() >= int(model.mw.win.Canvas().Size().Width)-100 {
		t.Errorf("the graph image is %v wide: it holds the properties too", img.Bounds())
	}
}

// waitGraph waits until dt's graph is laid out and shown.
func waitGraph(t *testing.T, dt *docTab, q *viewmodel.Queue) {
	t.Helper()
	ready := dt.graph.ready
	if !q.Drain(func() bool { return !isDone(ready) }, 20*time.Second) {
		t.Fatal("graph layout did not finish")
	}
}

func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
