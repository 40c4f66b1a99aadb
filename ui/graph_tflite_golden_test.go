package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"tensorscope/internal/samples"
	"tensorscope/viewmodel"
)

// TestGoldenGraphTFLiteWhileBody opens the body of LiteRT's WHILE test
// model (subgraph 2, run by the main graph's only operator) from the WHILE
// node, draws it, and goes back.
func TestGoldenGraphTFLiteWhileBody(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "tflite"), "litert", "multi_subgraphs_while.bin")
	p, win := graphPaneFor(t, "multi_subgraphs_while.bin", readFile(t, path), 1000, 760)
	while := p.model.Find("WHILE")
	if len(while) != 1 {
		t.Fatalf("find WHILE: %v", while)
	}
	p.goTo(while[0])
	if text := labelsIn(p.props); !strings.Contains(text, "body (subgraph 2)") {
		t.Fatalf("no body row in the WHILE's properties:\n%s", text)
	}
	p.enter(p.model.DocNode(while[0]), 1)
	waitReady(t, p)
	p.view.Fit()
	if !p.navRow.Visible() {
		t.Error("inside the body: Back is not shown")
	}
	test.AssertRendersToImage(t, "graph_tflite_while_body.png", win.Canvas())
	p.leave()
	waitReady(t, p)
	if p.navRow.Visible() || p.nav.Depth() != 0 {
		t.Errorf("after Back: back visible %v, depth %d", p.navRow.Visible(), p.nav.Depth())
	}
}

// TestGoldenTFLiteConvWeightDequantised shows a CONV_2D weight of the
// person detector, int8 quantised per output channel, dequantised.
func TestGoldenTFLiteConvWeightDequantised(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "tflite"), "tflite-micro", "person_detect.tflite")
	test.NewTempApp(t)
	q := viewmodel.NewQueue()
	d := openFixture(t, q, "person_detect.tflite", readFile(t, path))
	const name = "MobilenetV1/Conv2d_10_pointwise/weights/read"
	idx := -1
	for i, e := range d.Doc.Tensors {
		if e.Name == name {
			idx = i
		}
	}
	if idx < 0 {
		t.Fatalf("no tensor %q", name)
	}
	if e := d.Doc.Tensors[idx]; e.Quant == nil || e.Quant.Axis != 0 || len(e.Quant.Scales) != e.Shape[0] {
		t.Fatalf("tensor %q: shape %v quant %+v; want per-channel scales on dim 0", name, e.Shape, e.Quant)
	}
	win := goldenWindow(t, nil, 1200, 720)
	p := newTensorPane(win, d)
	win.SetContent(p.content)
	p.selectTensor(idx)
	settle(t, q, d)
	d.Inspector.SetDequantised(true)
	settle(t, q, d)
	if !d.Inspector.Dequantised() {
		t.Fatal("the inspector did not switch to dequantised values")
	}
	test.AssertRendersToImage(t, "tflite_conv_weight_dequantised.png", win.Canvas())
}
