package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tensorscope/internal/samples"
)

// TestGoldenGraphONNXMobileNetTop draws the start of torchvision's
// mobilenet_v3_small at 1:1: weights folded into the boxes, kernel,
// stride, channels and groups in them, shapes on the edges.
func TestGoldenGraphONNXMobileNetTop(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "onnx"), "torchvision-export", "mobilenet_v3_small_opset13.onnx")
	p, win := graphPaneFor(t, "mobilenet_v3_small_opset13.onnx", readFile(t, path), 1100, 900)
	// At 1:1 with the graph input's box at the top, a little left of centre.
	input := p.view.Scene().NodeBox(p.model.ViewNode(p.model.Graph().Inputs[0]))
	p.view.SetView(1, fyne.NewPos(float32(300-input.Min.X), float32(20-input.Min.Y)))
	if got := p.status.Text; !strings.HasPrefix(got, "179 nodes") {
		t.Errorf("status %q: want the 178 operators and the input", got)
	}
	test.AssertRendersToImage(t, "graph_onnx_mobilenet_v3_small_top.png", win.Canvas())
}

// TestGoldenGraphONNXLoopBody opens the body of ONNX's Loop test model
// from the Loop node's properties, draws it, and goes back.
func TestGoldenGraphONNXLoopBody(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "onnx"), "libonnx-testdata-1.12", "node", "test_loop11.onnx")
	p, win := graphPaneFor(t, "test_loop11.onnx", readFile(t, path), 1000, 760)
	loop := p.model.Find("Loop")
	if len(loop) != 1 {
		t.Fatalf("find Loop: %v", loop)
	}
	p.goTo(loop[0])
	if text := labelsIn(p.props); !strings.Contains(text, "\nbody\n") {
		t.Fatalf("no body row in the Loop's properties:\n%s", text)
	}
	p.enter(p.model.DocNode(loop[0]), 0)
	waitReady(t, p)
	p.view.Fit()
	if !p.navRow.Visible() || p.crumbs.Text != "main graph  ›  Loop #0 ▸ body" {
		t.Errorf("inside the body: back visible %v, path %q", p.navRow.Visible(), p.crumbs.Text)
	}
	test.AssertRendersToImage(t, "graph_onnx_loop_body.png", win.Canvas())

	p.leave()
	waitReady(t, p)
	if p.navRow.Visible() || p.nav.Depth() != 0 {
		t.Errorf("after Back: back visible %v, depth %d", p.navRow.Visible(), p.nav.Depth())
	}
}
