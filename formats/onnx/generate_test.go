package onnx_test

import (
	"bytes"
	"fmt"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/onnx/onnxtest"
)

func TestGeneratedModelsDecode(t *testing.T) {
	doc, err := decodeBytes(t, onnxtest.CNN(1000).Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(doc.Graph.Nodes); n < 1000 || n > 1010 {
		t.Errorf("%d nodes", n)
	}
	var buf bytes.Buffer
	if err := onnxtest.WriteLarge(&buf, 3, 4, 5); err != nil {
		t.Fatal(err)
	}
	doc, err = decodeBytes(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Tensors) != 3 || len(doc.Warnings) != 0 || fmt.Sprint(doc.Tensors[2].Shape) != "[4 5]" {
		t.Fatalf("tensors %v, warnings %v", doc.Tensors, doc.Warnings)
	}
	for _, v := range loadFloats(t, doc.Tensors[2]) {
		if v < -1 || v >= 1 {
			t.Fatalf("value %v outside [-1, 1)", v)
		}
	}
	if ops := doc.Graph.OpCounts(); len(ops) != 2 || ops[0].Op != "MatMul" || ops[0].Nodes != 3 {
		t.Errorf("ops %v", ops)
	}
}

// TestSubgraphInitializersShadowOnlyInside: a branch's own initializer
// hides the enclosing graph's initializer of the same name inside the
// branch only; a name the branch does not define resolves to the
// enclosing graph's initializer, and after the branch the outer one is
// back in scope.
func TestSubgraphInitializersShadowOnlyInside(t *testing.T) {
	branch := onnxtest.Graph{Name: "then",
		Nodes: []onnxtest.Node{{Op: "Add", Name: "inner", Inputs: []string{"w", "b"}, Outputs: []string{"y"}}},
		Initializers: []onnxtest.Tensor{
			{Name: "w", DataType: 1, Dims: []int64{3}, Raw: onnxtest.Float32s(1, 2, 3)},
		},
		Outputs: []onnxtest.ValueInfo{{Name: "y", ElemType: 1}},
	}
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{
		Nodes: []onnxtest.Node{
			{Op: "If", Name: "if", Inputs: []string{"cond"}, Outputs: []string{"z"},
				Attrs: []onnxtest.Attr{{Name: "then_branch", Type: 5, G: &branch}, {Name: "else_branch", Type: 5, G: &branch}}},
			{Op: "Mul", Name: "outer", Inputs: []string{"z", "w"}, Outputs: []string{"out"}},
		},
		Initializers: []onnxtest.Tensor{
			{Name: "w", DataType: 1, Dims: []int64{2}, Raw: onnxtest.Float32s(1, 2)},
			{Name: "b", DataType: 1, Dims: []int64{1}, Raw: onnxtest.Float32s(5)},
		},
		Inputs: []onnxtest.ValueInfo{{Name: "cond", ElemType: 9}},
	}}
	doc, err := decodeBytes(t, m.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	shapeOf := func(g *formats.Graph, node, input int) string {
		v := g.Values[g.Nodes[node].Inputs[input]]
		if v.Tensor < 0 {
			return "no tensor"
		}
		return fmt.Sprint(doc.Tensors[v.Tensor].Shape)
	}
	main := doc.Graph
	for _, sg := range main.Nodes[0].Subgraphs {
		if got := shapeOf(sg.Graph, 0, 0); got != "[3]" {
			t.Errorf("%s: w inside the branch is %s, want the branch's [3]", sg.Name, got)
		}
		if got := shapeOf(sg.Graph, 0, 1); got != "[1]" {
			t.Errorf("%s: b inside the branch is %s, want the enclosing graph's [1]", sg.Name, got)
		}
	}
	if got := shapeOf(main, 1, 1); got != "[2]" {
		t.Errorf("w after the branches is %s, want the main graph's [2]", got)
	}
}
