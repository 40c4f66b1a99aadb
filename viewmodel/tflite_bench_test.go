package viewmodel

import (
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/tflite"
	"tensorscope/formats/tflite/tflitetest"
	"tensorscope/graphview"
	"tensorscope/graphview/layout"
)

// BenchmarkLayoutTFLiteChain5000 lays out the generated 5,000-operator
// TFLite model (gentflite -ops 5000) as the viewer draws it, weights
// folded, and writes the topology for scripts/dagre-layout.js.
func BenchmarkLayoutTFLiteChain5000(b *testing.B) {
	doc, err := formats.DecodeAs("tflite", "chain5000.tflite", tflitetest.Chain(5000).Bytes())
	if err != nil {
		b.Fatal(err)
	}
	view := NewGraphModel(doc, false).View()
	g := &layout.Graph{Nodes: make([]layout.Node, len(view.Nodes)), Edges: make([]layout.Edge, len(view.Edges))}
	for i := range view.Nodes {
		w, h := graphview.NodeSize(&view.Nodes[i], graphview.EstimateMeasure)
		g.Nodes[i] = layout.Node{Width: w, Height: h}
	}
	for i, e := range view.Edges {
		g.Edges[i] = layout.Edge{From: e.From, To: e.To}
	}
	writeTopology(b, g, "tensorscope-tflite-chain5000-topology.json")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := layout.Layout(g, layout.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
