package onnx_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/onnx/onnxtest"
)

// maxSeedSize keeps the big torchvision exports out of the corpus: the
// fuzzer mutates small files far faster, and they hold every structure.
const maxSeedSize = 256 << 10

func FuzzDecodeONNX(f *testing.F) {
	for _, p := range sampleFiles(f) {
		if st, err := os.Stat(p); err == nil && st.Size() <= maxSeedSize {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	for _, c := range dtypeCases {
		m := onnxtest.Model{IRVersion: 10, Graph: onnxtest.Graph{Initializers: []onnxtest.Tensor{{Name: "raw", DataType: c.dataType, Dims: c.dims, Raw: c.raw}}}}
		f.Add(m.Marshal())
	}
	f.Add(onnxtest.NestedIfs(40))
	words := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{Initializers: []onnxtest.Tensor{
		{Name: "words", DataType: 8, Dims: []int64{3}, StringData: []string{"a", "\xff", "c"}}}}}
	f.Add(words.Marshal())
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := formats.DecodeAs("onnx", "fuzz.onnx", data)
		if err != nil {
			return
		}
		if _, err := json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
		checkGraph(t, doc.Graph, doc)
		for _, e := range doc.Tensors {
			if e.HasText() {
				for i := range 4 {
					_, _ = e.TextAt(i) // past the strings stored: an error, not a panic
				}
			}
			if !e.HasData() {
				continue
			}
			x, err := e.Load(context.Background())
			if err != nil {
				continue // external data shorter than it says
			}
			vals := make([]float64, min(x.Len(), 64))
			_ = x.ReadFloat64s(0, vals)
		}
	})
}

// checkGraph checks that every index a graph holds is in range.
func checkGraph(t *testing.T, g *formats.Graph, doc *formats.Document) {
	if g == nil {
		return
	}
	for _, n := range g.Nodes {
		for _, v := range append(append([]int{}, n.Inputs...), n.Outputs...) {
			if v < 0 || v >= len(g.Values) {
				t.Fatalf("node %d refers to value %d of %d", n.ID, v, len(g.Values))
			}
		}
		for _, sg := range n.Subgraphs {
			checkGraph(t, sg.Graph, doc)
		}
	}
	for _, v := range g.Values {
		if v.Producer >= len(g.Nodes) || v.Tensor >= len(doc.Tensors) {
			t.Fatalf("value %q: producer %d, tensor %d", v.Name, v.Producer, v.Tensor)
		}
	}
	for _, id := range append(append([]int{}, g.Inputs...), g.Outputs...) {
		if id < 0 || id >= len(g.Nodes) {
			t.Fatalf("graph input/output node %d of %d", id, len(g.Nodes))
		}
	}
}
