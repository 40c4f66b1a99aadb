package viewmodel

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/onnx"
	"tensorscope/graphview"
	"tensorscope/graphview/layout"
	"tensorscope/internal/samples"
)

// swinTopology is the layout input of swin_t's graph as the viewer draws
// it (weights folded): box sizes from the text they hold, and the edges.
func swinTopology(b *testing.B) *layout.Graph {
	path := filepath.Join(samples.Dir(b, "onnx"), "torchvision-export", "swin_t_topology_w24_opset16.onnx")
	doc, err := formats.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer doc.Close()
	view := NewGraphModel(doc, false).FlatView()
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

// writeTopology saves g as {"widths","heights","edges"} for
// scripts/dagre-layout.js, at $TENSORSCOPE_TOPOLOGY or in the temp folder.
func writeTopology(b *testing.B, g *layout.Graph, name string) {
	out := os.Getenv("TENSORSCOPE_TOPOLOGY")
	if out == "" {
		out = filepath.Join(os.TempDir(), name)
	}
	t := struct {
		Widths  []float64 `json:"widths"`
		Heights []float64 `json:"heights"`
		Edges   [][2]int  `json:"edges"`
	}{}
	for _, n := range g.Nodes {
		t.Widths = append(t.Widths, n.Width)
		t.Heights = append(t.Heights, n.Height)
	}
	for _, e := range g.Edges {
		t.Edges = append(t.Edges, [2]int{e.From, e.To})
	}
	data, err := json.Marshal(t)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.Logf("topology (%d nodes, %d edges) written to %s", len(g.Nodes), len(g.Edges), out)
}

// BenchmarkLayoutSwinT lays out swin_t's graph alone (no text measuring,
// no drawing), on the same input dagre gets from the topology file.
func BenchmarkLayoutSwinT(b *testing.B) {
	g := swinTopology(b)
	writeTopology(b, g, "tensorscope-swin_t-topology.json")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := layout.Layout(g, layout.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
