package synth_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tmfile"
	"tensorscope/formats/tmfile/synth"
	"tensorscope/tensor"
)

func decode(t *testing.T, m *tmfile.Model) (*formats.Document, []byte) {
	t.Helper()
	data, err := tmfile.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := formats.OpenBytes("synthetic", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Warnings) != 0 {
		t.Errorf("warnings: %v", doc.Warnings)
	}
	return doc, data
}

func TestCNNNodeCounts(t *testing.T) {
	counts := []int{1, 7, 14, 15, 16, 33, 100, 1000, 10000}
	if !testing.Short() {
		counts = append(counts, 50000)
	}
	for _, n := range counts {
		doc, data := decode(t, synth.CNN(n, false))
		g := doc.Graph
		if len(g.Nodes) != n {
			t.Errorf("CNN(%d) has %d nodes", n, len(g.Nodes))
			continue
		}
		if len(g.Inputs) != 1 || len(g.Outputs) != 1 {
			t.Errorf("CNN(%d): inputs %v outputs %v", n, g.Inputs, g.Outputs)
		}
		if n < 1000 {
			continue
		}
		ops := map[string]int{}
		fanIn := 0
		for _, node := range g.Nodes {
			ops[node.Op]++
			if node.Kind == formats.KindOp && len(node.Inputs) >= 2 && (node.Op == "Eltwise" || node.Op == "Concat") {
				fanIn++
			}
		}
		fanOut := 0
		for _, c := range g.Consumers() {
			if len(c) > 1 {
				fanOut++
			}
		}
		if ops["Eltwise"] == 0 || ops["Concat"] == 0 || ops["BatchNormalization"] == 0 || fanIn == 0 || fanOut == 0 {
			t.Errorf("CNN(%d) is not branchy: ops %v, %d joins, %d forks", n, ops, fanIn, fanOut)
		}
		if doc.Metadata.Child("weights").Child("with_data").Value != int64(0) {
			t.Errorf("CNN(%d, false) has weight data", n)
		}
		if n == 50000 && len(data) > 16<<20 {
			t.Errorf("CNN(50000) without weights is %d bytes", len(data))
		}
	}
}

func TestCNNWithWeightsIsDeterministic(t *testing.T) {
	a, err := tmfile.Marshal(synth.CNN(500, true))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tmfile.Marshal(synth.CNN(500, true))
	if !bytes.Equal(a, b) {
		t.Error("two CNN(500, true) differ")
	}
	doc, _ := decode(t, synth.CNN(500, true))
	for _, e := range doc.Tensors {
		if e.Role == formats.RoleWeight && !e.HasData() {
			t.Fatalf("weight %s has no data", e.Name)
		}
	}
}

// TestDemo checks the demo network and that assets/demo.tmfile is what
// `go generate ./assets` makes of it (weights within float rounding, in
// case math functions differ in the last bit between platforms).
func TestDemo(t *testing.T) {
	doc, data := decode(t, synth.Demo())
	if len(data) < 50<<10 || len(data) > 300<<10 {
		t.Errorf("demo model is %d bytes, want 50–300 KB", len(data))
	}
	ops := map[string]int{}
	for _, n := range doc.Graph.Nodes {
		ops[n.Op]++
	}
	for op, want := range map[string]int{"Convolution": 3, "ReLu": 3, "Pooling": 2, "Eltwise": 1, "FullyConnected": 2, "Softmax": 1, "Flatten": 1, "InputOp": 1} {
		if ops[op] != want {
			t.Errorf("%d %s nodes, want %d", ops[op], op, want)
		}
	}
	in := doc.Tensors[doc.Graph.Nodes[doc.Graph.Inputs[0]].Outputs[0]]
	if in.Shape[0] != 1 || in.Shape[1] != 1 || in.Shape[2] != 28 || in.Shape[3] != 28 {
		t.Errorf("input shape %v", in.Shape)
	}
	conv1 := doc.Tensor("conv1.weight")
	w, err := conv1.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	vals := floats(t, w)
	if len(vals) != 72 || maxAbs(vals) < 0.1 {
		t.Errorf("conv1 weights %v", vals)
	}

	committed, err := os.ReadFile("../../../assets/demo.tmfile")
	if err != nil {
		t.Fatalf("assets/demo.tmfile: %v (run go generate ./assets)", err)
	}
	if bytes.Equal(committed, data) {
		return
	}
	old, err := formats.OpenBytes("committed", committed)
	if err != nil {
		t.Fatal(err)
	}
	if len(old.Tensors) != len(doc.Tensors) || len(committed) != len(data) {
		t.Fatalf("assets/demo.tmfile is out of date: run go generate ./assets")
	}
	for i, e := range doc.Tensors {
		if !e.HasData() {
			continue
		}
		a, _ := e.Load(context.Background())
		b, err := old.Tensors[i].Load(context.Background())
		if err != nil || e.Name != old.Tensors[i].Name {
			t.Fatalf("assets/demo.tmfile is out of date (tensor %d): run go generate ./assets", i)
		}
		x, y := floats(t, a), floats(t, b)
		for k := range x {
			if math.Abs(float64(x[k]-y[k])) > 1e-6*(1+math.Abs(float64(x[k]))) {
				t.Fatalf("assets/demo.tmfile is out of date (%s[%d] %v vs %v): run go generate ./assets", e.Name, k, y[k], x[k])
			}
		}
	}
}

func floats(t *testing.T, x *tensor.Tensor) []float32 {
	t.Helper()
	b := x.Storage().Bytes()[x.Offset():]
	out := make([]float32, x.Len())
	for i := range out {
		out[i] = math.Float32frombits(uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24)
	}
	return out
}

func maxAbs(v []float32) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(float64(x)))
	}
	return m
}
