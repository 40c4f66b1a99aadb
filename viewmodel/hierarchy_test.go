package viewmodel

import (
	"fmt"
	"strings"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/onnx"
	"tensorscope/internal/gentransformer"
)

func openTransformer(t testing.TB, args ...string) (*formats.Document, *GraphModel) {
	t.Helper()
	doc, err := formats.Open(gentransformer.Path(t, args...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { doc.Close() })
	return doc, NewGraphModel(doc, false)
}

// layerGroups are the groups model/layers.0 … model/layers.31.
func layerGroups(t *testing.T, m *GraphModel) []int {
	t.Helper()
	var out []int
	for i := 0; i < 32; i++ {
		g := m.GroupNamed(fmt.Sprintf("model/layers.%d", i))
		if g < 0 {
			t.Fatalf("no group model/layers.%d", i)
		}
		out = append(out, g)
	}
	return out
}

func TestTransformerOpensCollapsed(t *testing.T) {
	_, m := openTransformer(t)
	if n := len(m.FlatView().Nodes); n <= FlatUpTo {
		t.Fatalf("the transformer draws only %d nodes flat", n)
	}
	g := m.View()
	if len(g.Nodes) > MaxOpeningBoxes {
		t.Errorf("opens with %d boxes, more than %d", len(g.Nodes), MaxOpeningBoxes)
	}
	if m.Depth() != 2 {
		t.Errorf("opens at depth %d, want 2 (model/layers.N)", m.Depth())
	}
	for _, gi := range layerGroups(t, m) {
		v := m.ViewOfGroup(gi)
		if v < 0 {
			t.Fatalf("layer %v is not a box", m.GroupPath(gi))
		}
		box := g.Nodes[v]
		if !box.Collapsed || box.Title != m.GroupPath(gi)[1] {
			t.Errorf("box %+v", box)
		}
		if !strings.Contains(box.Subtitle, "MatMul×") {
			t.Errorf("layer box subtitle %q lacks the MatMul count", box.Subtitle)
		}
		if m.TwinCount(gi) != 32 || !containsLine(box.Details, "×32 identical") {
			t.Errorf("layer %v: %d twins, box lines %q", m.GroupPath(gi), m.TwinCount(gi), box.Details)
		}
	}
	// One edge per pair of boxes: layer N feeds layer N+1 through the
	// residual stream alone.
	l0, l1 := m.ViewOfGroup(layerGroups(t, m)[0]), m.ViewOfGroup(layerGroups(t, m)[1])
	n := 0
	for e, ed := range g.Edges {
		if ed.From == l0 && ed.To == l1 {
			n++
			if ed.Label != "" && len(m.EdgeValues(e)) > 1 {
				t.Errorf("merged edge of %d tensors labelled %q", len(m.EdgeValues(e)), ed.Label)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d edges from layers.0 to layers.1, want 1", n)
	}
	props := m.GroupProperties(layerGroups(t, m)[5])
	if text := propsText(props); !strings.Contains(text, "×32") || !strings.Contains(text, "none from layers.0") {
		t.Errorf("layers.5 properties:\n%s", text)
	}
}

func TestTransformerFaultBreaksTwins(t *testing.T) {
	_, m := openTransformer(t, "--fault-layer", "7")
	layers := layerGroups(t, m)
	for i, gi := range layers {
		want := 31
		if i == 7 {
			want = 1
		}
		if m.TwinCount(gi) != want {
			t.Errorf("layers.%d: %d twins, want %d", i, m.TwinCount(gi), want)
		}
	}
	if d := m.View().Nodes[m.ViewOfGroup(layers[7])].Details; containsLine(d, "identical") {
		t.Errorf("the faulty layer's box says %q", d)
	}
	text := propsText(m.GroupProperties(layers[7]))
	if !strings.Contains(text, "Extra: mlp/Add (1 more than layers.0)") {
		t.Errorf("layers.7 properties do not name the extra Add:\n%s", text)
	}
}

func TestExpandCollapseReveal(t *testing.T) {
	doc, m := openTransformer(t)
	boxes := len(m.View().Nodes)
	l3 := m.GroupNamed("model/layers.3")
	if !m.SetExpanded(l3, true) {
		t.Fatal("expanding layers.3 changed nothing")
	}
	g := m.View()
	if m.ViewOfGroup(l3) >= 0 {
		t.Error("layers.3 is still a box")
	}
	if len(g.Nodes) <= boxes {
		t.Errorf("%d boxes after expanding, %d before", len(g.Nodes), boxes)
	}
	frame := -1
	for f := range g.Frames {
		if m.FrameGroup(f) == l3 {
			frame = f
		}
	}
	if frame < 0 || g.Frames[frame].Title != "layers.3" || len(g.Frames[frame].Nodes) == 0 {
		t.Fatalf("no frame for layers.3: %+v", g.Frames)
	}
	if e := m.Expansion(); len(e) != 1 || !e["model/layers.3"] {
		t.Errorf("expansion %v", e)
	}
	m.SetExpanded(l3, false)
	if len(m.View().Nodes) != boxes {
		t.Errorf("collapsing again gives %d boxes, want %d", len(m.View().Nodes), boxes)
	}
	// Reveal opens every group round a node deep inside.
	id := -1
	for i, n := range doc.Graph.Nodes {
		if n.Name == "/model/layers.9/self_attn/Softmax" {
			id = i
		}
	}
	if id < 0 || !m.Reveal(id) {
		t.Fatal("revealing the Softmax of layers.9 changed nothing")
	}
	v := m.ViewNode(id)
	if m.DocNode(v) != id {
		t.Errorf("after Reveal, node %d is drawn by view node %d (doc %d)", id, v, m.DocNode(v))
	}
	if got := strings.Join(m.Scopes(v), "/"); got != "model/layers.9/self_attn" {
		t.Errorf("breadcrumb %q", got)
	}
	// A fresh model given the expansion shows the same.
	m2 := NewGraphModel(doc, false)
	m2.ApplyExpansion(m.Expansion())
	if len(m2.View().Nodes) != len(m.View().Nodes) {
		t.Errorf("expansion restored: %d boxes, want %d", len(m2.View().Nodes), len(m.View().Nodes))
	}
	m.ExpandAll()
	if len(m.View().Nodes) != len(m.FlatView().Nodes) || len(m.View().Edges) != len(m.FlatView().Edges) {
		t.Errorf("Expand All draws %d nodes %d edges, flat %d %d", len(m.View().Nodes), len(m.View().Edges), len(m.FlatView().Nodes), len(m.FlatView().Edges))
	}
	m.CollapseAll()
	if n := len(m.View().Nodes); n > 80 {
		t.Errorf("Collapse All leaves %d boxes", n)
	}
	// Find reaches into collapsed groups: the box holding a match.
	if got := m.Find("layers.9/self_attn/Softmax"); len(got) != 1 || m.ViewGroup(got[0]) < 0 {
		t.Errorf("Find in a collapsed group gives %v", got)
	}
}

func containsLine(lines []string, s string) bool {
	for _, l := range lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

func propsText(sections []PropSection) string {
	var b strings.Builder
	for _, s := range sections {
		b.WriteString(s.Title + "\n")
		for _, r := range s.Rows {
			b.WriteString(r.Label + ": " + r.Value + "\n")
		}
	}
	return b.String()
}
