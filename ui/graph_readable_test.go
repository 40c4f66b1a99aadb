package ui

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"tensorscope/internal/samples"
)

func torchvisionSample(t *testing.T, name string) []byte {
	return readFile(t, filepath.Join(samples.Dir(t, "onnx"), "torchvision-export", name))
}

// TestGoldenGraphONNXOpeningView draws mobilenet_v3_small as it opens: at
// a readable zoom, its input at the top, with the minimap of the whole
// graph and the part in view outlined.
func TestGoldenGraphONNXOpeningView(t *testing.T) {
	p, win := graphPaneFor(t, "mobilenet_v3_small_opset13.onnx", torchvisionSample(t, "mobilenet_v3_small_opset13.onnx"), 1100, 900)
	p.view.Home()
	if z := p.view.Zoom(); z < 0.8 {
		t.Errorf("opening zoom %g: text unreadable", z)
	}
	input := p.model.ViewNode(p.model.Graph().Inputs[0])
	if at, _ := p.view.NodeCentre(input); !p.view.NodeInView(input) || at.Y > 150 {
		t.Errorf("the input is at %v, not at the top of the view", at)
	}
	if shown, _, _ := p.view.MinimapShown(); !shown {
		t.Error("no minimap for a graph many times the view's height")
	}
	test.AssertRendersToImage(t, "graph_onnx_mobilenet_v3_small_opening.png", win.Canvas())
}

// swin_t has hundreds of operators that read only constants, laid out in
// the first rank beside the graph's input: it opens on the input all the
// same.
func TestGraphSwinOpensAtItsInput(t *testing.T) {
	p, _ := graphPaneFor(t, "swin_t_topology_w24_opset16.onnx", torchvisionSample(t, "swin_t_topology_w24_opset16.onnx"), 1100, 900)
	p.view.Home()
	input := p.model.ViewNode(p.model.Graph().Inputs[0])
	if at, _ := p.view.NodeCentre(input); !p.view.NodeInView(input) || at.Y > 150 || p.view.Zoom() < 0.8 {
		t.Errorf("swin_t opens with its input at %v, zoom %g", at, p.view.Zoom())
	}
}

// TestGraphTextNeverOverflows walks swin_t (long node names) screen by
// screen at zooms where glyph rounding makes small text relatively wider,
// and checks that every text drawn fits the room it was given: node lines
// their box, edge labels their label box.
func TestGraphTextNeverOverflows(t *testing.T) {
	p, _ := graphPaneFor(t, "swin_t_topology_w24_opset16.onnx", torchvisionSample(t, "swin_t_topology_w24_opset16.onnx"), 1100, 900)
	r := test.WidgetRenderer(p.view)
	size := p.view.Size()
	w, h := p.view.Scene().Size()
	checked := 0
	for _, zoom := range []float32{0.55, 0.8, 1, 1.5} {
		screens := 0
		for y := 0.0; y < h && screens < 40; y += float64(size.Height / zoom) {
			for x := 0.0; x < w; x += float64(size.Width / zoom) {
				p.view.SetView(zoom, fyne.NewPos(-float32(x)*zoom, -float32(y)*zoom))
				screens++
				for _, o := range r.Objects() {
					tx, ok := o.(*canvas.Text)
					if !ok {
						continue
					}
					checked++
					if got := fyne.MeasureText(tx.Text, tx.TextSize, tx.TextStyle).Width; got > tx.Size().Width+0.01 {
						t.Fatalf("zoom %g at (%.0f, %.0f): %q is %.1f wide in %.1f", zoom, x, y, tx.Text, got, tx.Size().Width)
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("checked only %d texts", checked)
	}
}

// TestGraphShowConstantsKeepsPlace selects a node in the middle of
// mobilenet_v3_small and toggles Show constants: the relayout moves every
// node, but the selected one stays where it was on the screen, at the same
// zoom.
func TestGraphShowConstantsKeepsPlace(t *testing.T) {
	p, _ := graphPaneFor(t, "mobilenet_v3_small_opset13.onnx", torchvisionSample(t, "mobilenet_v3_small_opset13.onnx"), 1100, 900)
	name := "/features/features.6/block/block.0/block.0.0/Conv"
	found := p.model.Find(name)
	if len(found) == 0 {
		t.Fatalf("no node %s", name)
	}
	p.goTo(found[0])
	doc := p.model.DocNode(found[0])
	at := fyne.NewPos(260, 330)
	p.view.PlaceNode(found[0], 0.9, at)
	for _, show := range []bool{true, false} {
		p.consts.SetChecked(show)
		waitReady(t, p)
		v := p.model.ViewNode(doc)
		got, ok := p.view.NodeCentre(v)
		if !ok || p.view.Selected() != v || math.Abs(float64(got.X-at.X)) > 0.5 || math.Abs(float64(got.Y-at.Y)) > 0.5 || p.view.Zoom() != 0.9 {
			t.Errorf("constants shown %v: the selected node (view %d, selected %d) is at %v zoom %g, want %v zoom 0.9",
				show, v, p.view.Selected(), got, p.view.Zoom(), at)
		}
		if want := fmt.Sprint(show); fmt.Sprint(p.settings.ShowConstants) != want {
			t.Errorf("settings say constants shown %v", p.settings.ShowConstants)
		}
	}
}
