package ui

import (
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tensorscope/internal/gentransformer"
)

func transformerPane(t *testing.T, w, h float32) (*graphPane, fyne.Window) {
	t.Helper()
	data, err := os.ReadFile(gentransformer.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	return graphPaneFor(t, "decoder.onnx", data, w, h)
}

// TestGraphGroupsInPane expands a layer of the generated transformer as a
// double tap does, collapses it again by its frame, finds a node deep in a
// collapsed layer, highlights a lineage through collapsed layers, and
// expands and collapses all.
func TestGraphGroupsInPane(t *testing.T) {
	p, _ := transformerPane(t, 1600, 1000)
	m := p.model
	boxes := len(m.View().Nodes)
	if boxes > 150 || !strings.Contains(p.status.Text, "boxes of") {
		t.Fatalf("opens with %d boxes, status %q", boxes, p.status.Text)
	}
	l3 := m.GroupNamed("model/layers.3")
	l4 := m.GroupNamed("model/layers.4")
	v := m.ViewOfGroup(l3)
	at, ok := p.view.NodeCentre(v)
	if !ok {
		t.Fatal("no box for layers.3")
	}
	before4, _ := p.view.NodeCentre(m.ViewOfGroup(l4))
	test.TapAt(p.view, at)
	if p.scopes.Text != "model  ›  layers.3" {
		t.Errorf("breadcrumb of the layers.3 box: %q", p.scopes.Text)
	}
	if text := labelsIn(p.props); !strings.Contains(text, "×32") {
		t.Errorf("the layer's properties do not say it repeats:\n%s", text)
	}
	// The double tap itself is graphview's (TestExpandAndCollapseTaps);
	// a second tap here could come later than a double tap's time on a
	// busy machine.
	p.view.OnNodeExpand(v)
	waitReady(t, p)
	m = p.model
	if m.ViewOfGroup(l3) >= 0 || len(m.View().Nodes) <= boxes {
		t.Fatalf("after a double tap layers.3 is still a box (%d boxes)", len(m.View().Nodes))
	}
	if !p.settings.Groups["model/layers.3"] {
		t.Errorf("settings do not keep the expansion: %v", p.settings.Groups)
	}
	frame := -1
	for f := 0; f < p.view.Scene().Frames(); f++ {
		if m.FrameGroup(f) == l3 {
			frame = f
		}
	}
	if frame < 0 {
		t.Fatal("no frame round layers.3")
	}
	// The frame's top is where the box's top was; layers.4 has not moved
	// further than the expanded layer's height pushes it.
	after4, _ := p.view.NodeCentre(m.ViewOfGroup(l4))
	if after4.Y <= before4.Y {
		t.Errorf("layers.4 moved from %v to %v", before4, after4)
	}

	// Reload keeps the expansion.
	q := paneQueues[p]
	p2 := newGraphPane(p.dt, p)
	paneQueues[p2] = q
	waitReady(t, p2)
	if p2.model.ViewOfGroup(l3) >= 0 || len(p2.model.View().Nodes) != len(m.View().Nodes) {
		t.Errorf("after a reload: layers.3 box %d, %d boxes, want %d", p2.model.ViewOfGroup(l3), len(p2.model.View().Nodes), len(m.View().Nodes))
	}

	p.collapseFrame(frame)
	waitReady(t, p)
	m = p.model
	if m.ViewOfGroup(l3) < 0 || len(m.View().Nodes) != boxes {
		t.Fatalf("collapsing the frame: layers.3 box %d, %d boxes, want %d", m.ViewOfGroup(l3), len(m.View().Nodes), boxes)
	}

	// Find expands the groups of the node found.
	p.find.SetText("layers.9/self_attn/Softmax")
	p.next(1)
	waitReady(t, p)
	m = p.model
	sel := p.view.Selected()
	if id := m.DocNode(sel); id < 0 || p.dt.doc.Doc.Graph.Nodes[id].Name != "/model/layers.9/self_attn/Softmax" {
		t.Fatalf("find selected view node %d (document node %d)", sel, m.DocNode(sel))
	}
	if p.scopes.Text != "model  ›  layers.9  ›  self_attn" {
		t.Errorf("breadcrumb %q", p.scopes.Text)
	}
	if !p.view.NodeInView(sel) {
		t.Error("the node found is not in view")
	}

	// Lineage through collapsed boxes: every layer before and after
	// layers.9's Softmax lies on its lineage.
	p.view.HighlightLineage(sel)
	nodes, _ := p.view.Scene().Lineage(sel)
	for _, name := range []string{"model/layers.0", "model/layers.31"} {
		if b := m.ViewOfGroup(m.GroupNamed(name)); b < 0 || !nodes[b] {
			t.Errorf("%s (box %d) is not on the Softmax's lineage", name, b)
		}
	}

	p.setAll(true)
	waitReady(t, p)
	if n, flat := len(p.model.View().Nodes), len(p.model.FlatView().Nodes); n != flat {
		t.Errorf("Expand all: %d boxes, %d nodes", n, flat)
	}
	if p.depthSel.Selected != "All" {
		t.Errorf("depth menu says %q after Expand all", p.depthSel.Selected)
	}
	p.setAll(false)
	waitReady(t, p)
	if n := len(p.model.View().Nodes); n >= boxes {
		t.Errorf("Collapse all: %d boxes, %d at the opening depth", n, boxes)
	}
	p.depthSel.SetSelected("Level 3")
	waitReady(t, p)
	if p.model.Depth() != 3 || len(p.settings.Groups) != 0 {
		t.Errorf("depth menu: depth %d, groups %v", p.model.Depth(), p.settings.Groups)
	}
}
