package viewmodel

import (
	"testing"

	"tensorscope/graphview"
	"tensorscope/graphview/layout"
)

// topologyOf is the layout input of a view graph: box sizes from the text
// they hold (estimated), and the edges.
func topologyOf(view *graphview.Graph) *layout.Graph {
	g := &layout.Graph{Nodes: make([]layout.Node, len(view.Nodes)), Edges: make([]layout.Edge, len(view.Edges))}
	for i := range view.Nodes {
		w, h := graphview.NodeSize(&view.Nodes[i], graphview.EstimateMeasure)
		g.Nodes[i] = layout.Node{Width: w, Height: h}
	}
	for i, e := range view.Edges {
		g.Edges[i] = layout.Edge{From: e.From, To: e.To}
	}
	return g
}

// BenchmarkLayoutTransformer lays out the generated transformer's flat
// graph alone, and writes its topology for scripts/dagre-layout.js as
// BenchmarkLayoutSwinT does.
func BenchmarkLayoutTransformer(b *testing.B) {
	_, m := openTransformer(b)
	g := topologyOf(m.FlatView())
	writeTopology(b, g, "tensorscope-transformer-topology.json")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := layout.Layout(g, layout.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHierarchy: building the model of the transformer's graph
// (weights folded, groups, op counts, repeated blocks), and the graph
// drawn at the opening depth and with one layer expanded, laid out.
func BenchmarkHierarchy(b *testing.B) {
	doc, m := openTransformer(b)
	b.Run("model", func(b *testing.B) {
		for b.Loop() {
			NewGraphModel(doc, false)
		}
	})
	b.Run("opening-scene", func(b *testing.B) {
		for b.Loop() {
			m.SetDepth(DepthAuto)
			sceneOf(b, m)
		}
	})
	l3 := m.GroupNamed("model/layers.3")
	b.Run("expand-layer-scene", func(b *testing.B) {
		for b.Loop() {
			m.SetDepth(DepthAuto)
			m.SetExpanded(l3, true)
			sceneOf(b, m)
		}
	})
	b.Run("expand-all-scene", func(b *testing.B) {
		for b.Loop() {
			m.SetDepth(DepthAuto)
			m.ExpandAll()
			sceneOf(b, m)
		}
	})
	b.Run("flat-scene", func(b *testing.B) {
		for b.Loop() {
			if _, err := graphview.NewScene(m.FlatView(), graphview.SceneOptions{Measure: graphview.EstimateMeasure}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func sceneOf(b *testing.B, m *GraphModel) {
	if _, err := graphview.NewScene(m.View(), graphview.SceneOptions{Measure: graphview.EstimateMeasure}); err != nil {
		b.Fatal(err)
	}
}
