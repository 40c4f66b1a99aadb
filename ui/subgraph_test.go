package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tensorscope/graphview"
	"tensorscope/internal/samples"
)

// TestSubgraphOpensFitted: an If's then_branch opened from the properties
// of a node the user moved to shows all of its nodes at once (it drew
// nothing until Fit, the main graph's viewport kept), and its row counts
// the branch's five outputs (not the two nodes producing them). Back
// returns to the main graph as the user left it.
func TestSubgraphOpensFitted(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "onnx"), "onnx-github", "node", "test_affine_grid_2d_expanded.onnx")
	p, _ := graphPaneFor(t, "test_affine_grid_2d_expanded.onnx", readFile(t, path), 1000, 700)
	ifs := p.model.Find("If")
	if len(ifs) == 0 {
		t.Fatal("no If node")
	}
	p.goTo(ifs[0])
	p.view.SetView(2, fyne.NewPos(-3000, -2000)) // the user zoomed into a corner
	before := ViewportOf(p.view)
	if text := labelsIn(p.props); !strings.Contains(text, "then_branch\n2 nodes, 0 inputs, 5 outputs") {
		t.Errorf("then_branch row: want \"2 nodes, 0 inputs, 5 outputs\" in\n%s", text)
	}
	p.enter(p.model.DocNode(ifs[0]), 0)
	waitReady(t, p)
	if n := len(p.model.View().Nodes); n != 2 {
		t.Fatalf("then_branch has %d nodes, want 2", n)
	}
	for v := range p.model.View().Nodes {
		if !p.view.NodeInView(v) {
			t.Errorf("node %d of the branch is out of view (zoom %v, offset %v)", v, p.view.Zoom(), p.view.Offset())
		}
	}
	p.leave()
	waitReady(t, p)
	if after := ViewportOf(p.view); after.Zoom != before.Zoom {
		t.Errorf("after Back: zoom %v, want the %v the user left at", after.Zoom, before.Zoom)
	}
}

// TestMinimapFoldRemembered: folding the minimap in one graph pane is a
// preference, so the next pane opens with it folded.
func TestMinimapFoldRemembered(t *testing.T) {
	p, _ := graphPaneFor(t, "model.nn", nnFixture(t), 600, 400)
	if p.view.MinimapCollapsed() {
		t.Fatal("the minimap starts folded")
	}
	p.view.OnMinimapToggled(true)
	if !fyne.CurrentApp().Preferences().Bool(minimapFoldedPref) {
		t.Error("folding the minimap was not remembered")
	}
	q := newGraphPane(p.dt, nil)
	if !q.view.MinimapCollapsed() {
		t.Error("a new graph pane opens with the minimap open after the user folded it")
	}
}

// TestGraphTooLargeForAPNGOffersSVG: when the graph cannot be a readable
// PNG the window says why and, on Export SVG, writes the SVG beside the
// name chosen.
func TestGraphTooLargeForAPNGOffersSVG(t *testing.T) {
	p, win := graphPaneFor(t, "model.nn", nnFixture(t), 800, 600)
	dir := t.TempDir()
	why := &graphview.PNGTooLargeError{Width: 11826, Height: 144963, Scale: 0.8, MaxPixels: 64 << 20}
	p.offerSVG(filepath.Join(dir, "model-graph.png"), why)
	text := dialogText(win)
	if !strings.Contains(text, "11,826×144,963") || !strings.Contains(text, "model-graph.svg") {
		t.Fatalf("the dialog says:\n%s", text)
	}
	var export *widget.Button
	for _, o := range test.LaidOutObjects(win.Canvas().Overlays().Top()) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Export SVG" {
			export = b
		}
	}
	if export == nil {
		t.Fatal("no Export SVG button")
	}
	test.Tap(export)
	svg := filepath.Join(dir, "model-graph.svg")
	written := func() bool { _, err := os.Stat(svg); return err == nil }
	paneQueues[p].Drain(func() bool { return !written() }, 20*time.Second)
	if !written() {
		t.Error("no SVG was written")
	}
}

// TestEscapeLeavesFind: Escape in the find box gives the graph the focus,
// so that its keys (M folds the minimap) work without the mouse.
func TestEscapeLeavesFind(t *testing.T) {
	p, win := graphPaneFor(t, "model.nn", nnFixture(t), 600, 400)
	win.Canvas().Focus(p.find)
	p.find.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if win.Canvas().Focused() != p.view {
		t.Fatalf("after Escape in the find box the focus is on %T", win.Canvas().Focused())
	}
	p.view.TypedRune('m')
	if !p.view.MinimapCollapsed() {
		t.Error("M after Escape did not fold the minimap")
	}
}
