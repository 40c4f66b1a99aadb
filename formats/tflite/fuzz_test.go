package tflite_test

import (
	"encoding/json"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tflite/tflitetest"
	"tensorscope/internal/samples"
)

func FuzzDecodeTFLite(f *testing.F) {
	samples.Seed(f, "tflite/litert")
	samples.Seed(f, "tflite/tflite-micro")
	samples.Seed(f, "tflite/coral")
	f.Add(tflitetest.Chain(4).Bytes())
	f.Add(whileModel(1, 2, 1, 1).Bytes())
	f.Add(perChannelModel().Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := formats.DecodeAs("tflite", "fuzz.tflite", data)
		if err != nil {
			return
		}
		if _, err := json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
		checkGraph(t, doc.Graph, doc, 0)
		for _, e := range doc.Tensors {
			if e.HasText() {
				for i := range 4 {
					_, _ = e.TextAt(i)
				}
			}
		}
		loadAll(doc)
	})
}

// checkGraph checks that every index a graph holds is in range.
func checkGraph(t *testing.T, g *formats.Graph, doc *formats.Document, depth int) {
	if g == nil || depth > 40 {
		return
	}
	for _, n := range g.Nodes {
		for _, v := range append(append([]int{}, n.Inputs...), n.Outputs...) {
			if v < 0 || v >= len(g.Values) {
				t.Fatalf("node %d refers to value %d of %d", n.ID, v, len(g.Values))
			}
		}
		for _, sg := range n.Subgraphs {
			checkGraph(t, sg.Graph, doc, depth+1)
		}
	}
	for _, v := range g.Values {
		if v.Producer >= len(g.Nodes) || v.Tensor >= len(doc.Tensors) {
			t.Fatalf("value %q: producer %d, tensor %d", v.Name, v.Producer, v.Tensor)
		}
	}
}
