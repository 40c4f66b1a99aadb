package viewmodel

import (
	"strings"
	"testing"

	"tensorscope/formats"
	_ "tensorscope/formats/onnx"
	"tensorscope/formats/onnx/onnxtest"
)

// loopModel is a Loop whose body adds the loop-carried value to a weight
// of the main graph and passes the condition through.
func loopModel() []byte {
	body := onnxtest.Graph{Name: "body",
		Nodes: []onnxtest.Node{
			{Op: "Identity", Name: "keep_going", Inputs: []string{"cond_in"}, Outputs: []string{"cond_out"}},
			{Op: "Add", Name: "accumulate", Inputs: []string{"acc_in", "w"}, Outputs: []string{"acc_out"}},
		},
		Inputs: []onnxtest.ValueInfo{{Name: "i", ElemType: 7, Dims: []any{}}, {Name: "cond_in", ElemType: 9, Dims: []any{}},
			{Name: "acc_in", ElemType: 1, Dims: []any{"batch", 4}}},
		Outputs: []onnxtest.ValueInfo{{Name: "cond_out", ElemType: 9}, {Name: "acc_out", ElemType: 1}},
	}
	m := onnxtest.Model{IRVersion: 8, Opsets: map[string]int64{"": 13}, Graph: onnxtest.Graph{Name: "main",
		Nodes: []onnxtest.Node{{Op: "Loop", Name: "repeat", Inputs: []string{"n", "", "x"}, Outputs: []string{"y"},
			Attrs: []onnxtest.Attr{{Name: "body", Type: 5, G: &body}}}},
		Initializers: []onnxtest.Tensor{{Name: "w", DataType: 1, Dims: []int64{4}, Raw: onnxtest.Float32s(1, 2, 3, 4)}},
		Inputs:       []onnxtest.ValueInfo{{Name: "n", ElemType: 7, Dims: []any{}}, {Name: "x", ElemType: 1, Dims: []any{"batch", 4}}},
		Outputs:      []onnxtest.ValueInfo{{Name: "y", ElemType: 1, Dims: []any{"batch", 4}}},
	}}
	return m.Marshal()
}

func TestGraphNavEntersALoopBodyAndComesBack(t *testing.T) {
	d, err := formats.OpenBytes("loop.onnx", loopModel())
	if err != nil {
		t.Fatal(err)
	}
	nav := NewGraphNav(d)
	main := NewSubgraphModel(d, nav.Current(), false)
	loop := main.ViewNode(0)
	props := main.NodeProperties(loop)
	var open *PropRow
	for _, s := range props {
		for i, r := range s.Rows {
			if s.Title == "Subgraphs" && r.Subgraph == 0 {
				open = &s.Rows[i]
			}
		}
	}
	if open == nil || open.Label != "body" || open.Value != "2 nodes, 3 inputs, 2 outputs" {
		t.Fatalf("no row opening the body: %+v", props)
	}
	if err := nav.Enter(0, open.Subgraph); err != nil {
		t.Fatal(err)
	}
	if nav.Depth() != 1 || strings.Join(nav.Path(), " | ") != "main graph | Loop repeat ▸ body" {
		t.Errorf("path %q", nav.Path())
	}
	body := NewSubgraphModel(d, nav.Current(), false)
	var titles []string
	for _, n := range body.View().Nodes {
		titles = append(titles, n.Title+" "+n.Subtitle+" "+strings.Join(n.Details, ";"))
	}
	// The weight from the main graph folds into Add; the body's inputs are
	// drawn with their symbolic shapes.
	want := "Identity keep_going |Add accumulate w 4|Input i |Input cond_in |Input acc_in batch×4"
	if got := strings.Join(titles, "|"); got != want {
		t.Errorf("body nodes:\n got %s\nwant %s", got, want)
	}
	if id := nav.Back(); id != 0 || nav.Depth() != 0 {
		t.Errorf("back: node %d, depth %d", id, nav.Depth())
	}
	if nav.Back() != -1 {
		t.Error("back from the main graph")
	}
	if err := nav.Enter(0, 1); err == nil {
		t.Error("entered a subgraph the node does not have")
	}
}

// TestSubgraphSummaryPluralises: "1 node, 1 input, 1 output", not "1 nodes".
func TestSubgraphSummaryPluralises(t *testing.T) {
	g := &formats.Graph{Nodes: []formats.Node{{Kind: formats.KindInput}, {Kind: formats.KindOp}}, Inputs: []int{0}, Outputs: []int{1}}
	if got := subgraphSummary(g); got != "1 node, 1 input, 1 output" {
		t.Errorf("summary %q", got)
	}
}

// TestSubgraphSummaryCountsOutputValues: a branch whose Split feeds four
// of its five outputs has five outputs, not two producers.
func TestSubgraphSummaryCountsOutputValues(t *testing.T) {
	g := &formats.Graph{Nodes: []formats.Node{{Kind: formats.KindOp}, {Kind: formats.KindOp}}, Outputs: []int{0, 1}, OutputValues: []int{0, 1, 2, 3, 4}}
	if got := subgraphSummary(g); got != "2 nodes, 0 inputs, 5 outputs" {
		t.Errorf("summary %q", got)
	}
}
