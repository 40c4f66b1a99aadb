package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// Goldens of the hierarchy: swin_t opening collapsed at its stages, with
// one stage expanded in place, and the generated transformer collapsed.
func TestGoldenGraphGroups(t *testing.T) {
	p, win := graphPaneFor(t, "swin_t_topology_w24_opset16.onnx", torchvisionSample(t, "swin_t_topology_w24_opset16.onnx"), 1100, 900)
	if d := p.model.Depth(); d != 2 {
		t.Errorf("swin_t opens at depth %d, want 2 (features.N, its stages)", d)
	}
	p.view.Home()
	test.AssertRendersToImage(t, "graph_swin_t_collapsed.png", win.Canvas())

	stage := p.model.GroupNamed("features/features.2")
	v := p.model.ViewOfGroup(stage)
	if v < 0 {
		t.Fatal("features.2 is not a box")
	}
	p.view.Select(v)
	p.showNode(v)
	p.expandBox(v)
	waitReady(t, p)
	if p.model.ViewOfGroup(stage) >= 0 {
		t.Fatal("features.2 did not expand")
	}
	test.AssertRendersToImage(t, "graph_swin_t_stage_expanded.png", win.Canvas())
}

func TestGoldenGraphTransformerCollapsed(t *testing.T) {
	p, win := transformerPane(t, 1100, 900)
	p.view.Home()
	test.AssertRendersToImage(t, "graph_transformer_collapsed.png", win.Canvas())
}

// The transformer with one layer expanded in place: its frame holds the
// layer's inside, and the layers round it keep their places.
func TestGoldenGraphTransformerLayerExpanded(t *testing.T) {
	p, win := transformerPane(t, 1100, 900)
	p.view.Home()
	l3 := p.model.GroupNamed("model/layers.3")
	v := p.model.ViewOfGroup(l3)
	if v < 0 {
		t.Fatal("layers.3 is not a box")
	}
	p.view.CenterOn(v)
	p.view.Select(v)
	p.showNode(v)
	p.expandBox(v)
	waitReady(t, p)
	if p.model.ViewOfGroup(l3) >= 0 {
		t.Fatal("layers.3 did not expand")
	}
	test.AssertRendersToImage(t, "graph_transformer_layer_expanded.png", win.Canvas())
}
