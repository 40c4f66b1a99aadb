package viewmodel

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/internal/samples"
	"tensorscope/tensor"
)

// chainDoc is input → conv(w, b) → relu, with the weights made by const nodes.
func chainDoc() *formats.Document {
	d := (&formats.Source{Data: []byte{}}).NewDocument(&formats.Format{ID: "t"}, "1")
	d.Tensors = []*formats.TensorEntry{
		{Name: "conv.weight", DType: tensor.Float32, Shape: []int{8, 1, 3, 3}, Offset: -1, Role: formats.RoleWeight},
		{Name: "conv.bias", DType: tensor.Float32, Shape: []int{8}, Offset: -1, Role: formats.RoleWeight},
	}
	d.Graph = &formats.Graph{
		Nodes: []formats.Node{
			{ID: 0, Name: "w", Op: "Const", Kind: formats.KindConst, Outputs: []int{0}},
			{ID: 1, Name: "b", Op: "Const", Kind: formats.KindConst, Outputs: []int{1}},
			{ID: 2, Name: "data", Op: "InputOp", Kind: formats.KindInput, Outputs: []int{2}},
			{ID: 3, Name: "conv", Op: "Convolution", Inputs: []int{2, 0, 1}, Outputs: []int{3}, Attrs: []formats.Attr{
				{Name: "kernel_h", Value: int64(3)}, {Name: "kernel_w", Value: int64(3)},
				{Name: "stride_h", Value: int64(2)}, {Name: "stride_w", Value: int64(2)},
				{Name: "input_channel", Value: int64(1)}, {Name: "output_channel", Value: int64(8)}},
				Meaning: formats.Meaning{Category: formats.CategoryConvolution, Kernel: []int{3, 3}, Stride: []int{2, 2},
					InChannels: 1, OutChannels: 8, FusedActivation: "relu"}},
			{ID: 4, Name: "act", Op: "ReLu", Inputs: []int{3}, Outputs: []int{4}},
		},
		Values: []formats.Value{
			{Name: "conv.weight", Producer: 0, Tensor: 0},
			{Name: "conv.bias", Producer: 1, Tensor: 1},
			{Name: "data", Producer: 2, Tensor: -1, Shape: []int{1, 1, 28, 28}},
			{Name: "conv_out", Producer: 3, Tensor: -1, Shape: []int{1, 8, 14, 14}},
			{Name: "out", Producer: 4, Tensor: -1},
		},
		Inputs: []int{2}, Outputs: []int{4},
	}
	return d
}

func TestGraphModelFoldsConstants(t *testing.T) {
	m := NewGraphModel(chainDoc(), false)
	g := m.View()
	if len(g.Nodes) != 3 {
		t.Fatalf("%d view nodes, want 3 (consts folded)", len(g.Nodes))
	}
	if got := []int{m.DocNode(0), m.DocNode(1), m.DocNode(2)}; !reflect.DeepEqual(got, []int{2, 3, 4}) {
		t.Errorf("view → doc nodes %v", got)
	}
	if m.ViewNode(0) != -1 || m.ViewNode(3) != 1 {
		t.Errorf("doc → view mapping wrong")
	}
	want := []struct{ from, to int }{{0, 1}, {1, 2}}
	if len(g.Edges) != len(want) {
		t.Fatalf("edges %v", g.Edges)
	}
	for i, w := range want {
		if g.Edges[i].From != w.from || g.Edges[i].To != w.to {
			t.Errorf("edge %d = %d→%d, want %d→%d", i, g.Edges[i].From, g.Edges[i].To, w.from, w.to)
		}
	}
	if g.Edges[1].Label != "1×8×14×14" || m.EdgeValue(1) != 3 {
		t.Errorf("edge label %q value %d", g.Edges[1].Label, m.EdgeValue(1))
	}
	conv := g.Nodes[1]
	if !reflect.DeepEqual(conv.Details, []string{"3×3 /2", "1 → 8 ch", "W 8×1×3×3", "b 8"}) {
		t.Errorf("conv details %q", conv.Details)
	}
	if g.Nodes[0].Title != "Input" || !reflect.DeepEqual(g.Nodes[0].Details, []string{"1×1×28×28"}) {
		t.Errorf("input node %+v", g.Nodes[0])
	}
}

func TestGraphModelShowConstants(t *testing.T) {
	m := NewGraphModel(chainDoc(), true)
	if n := len(m.View().Nodes); n != 5 {
		t.Fatalf("%d nodes with constants shown", n)
	}
	if e := len(m.View().Edges); e != 4 {
		t.Errorf("%d edges with constants shown, want 4", e)
	}
}

func TestGraphModelFindAndProperties(t *testing.T) {
	m := NewGraphModel(chainDoc(), false)
	if got := m.Find("CONVOLUTION"); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("find by op/name: %v", got)
	}
	if got := m.Find("conv.weight"); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("a folded weight finds its consumer: %v", got)
	}
	if got := m.Find("out"); !reflect.DeepEqual(got, []int{1, 2}) {
		t.Errorf("find by tensor name: %v", got)
	}
	props := m.NodeProperties(1)
	var text []string
	for _, s := range props {
		for _, r := range s.Rows {
			text = append(text, s.Title+"/"+r.Label+"="+r.Value)
		}
	}
	joined := strings.Join(text, "\n")
	for _, want := range []string{"Node/Op=Convolution", "Attributes/kernel_h=3", "Meaning/Category=convolution",
		"Meaning/Kernel=3×3", "Meaning/Stride=2×2", "Meaning/In channels=1", "Meaning/Out channels=8",
		"Meaning/Fused activation=relu", "Inputs/#0=data [1, 1, 28, 28] ← data",
		"Inputs/#1=conv.weight  float32 [8, 1, 3, 3] (folded weight)", "Outputs/#0=conv_out [1, 8, 14, 14] → act"} {
		if !strings.Contains(joined, want) {
			t.Errorf("properties lack %q:\n%s", want, joined)
		}
	}
	ep := m.EdgeProperties(1)
	if len(ep) != 1 || ep[0].Rows[2].Label != "From" || ep[0].Rows[2].Node != 1 {
		t.Errorf("edge properties %+v", ep)
	}
}

// TestGraphModelRealSamples checks that every node of real models that is
// not folded is reachable by an edge (real graphs are connected) and that
// edges join distinct nodes.
func TestGraphModelRealSamples(t *testing.T) {
	for _, path := range samples.Files(t, "tmfile", ".tmfile")[:6] {
		d, err := formats.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		m := NewGraphModel(d, false)
		g := m.View()
		touched := make([]bool, len(g.Nodes))
		for _, e := range g.Edges {
			if e.From == e.To {
				t.Errorf("%s: self-loop on %d", path, e.From)
			}
			touched[e.From], touched[e.To] = true, true
		}
		for v, ok := range touched {
			if !ok && len(g.Nodes) > 1 {
				t.Errorf("%s: view node %d (%s) has no edge", path, v, g.Nodes[v].Subtitle)
			}
		}
		d.Close()
	}
}

// A constant that is a graph output is drawn: folding it would leave the
// output, and in this TenniS module the whole graph, undrawn.
func TestGraphModelKeepsConstantOutputs(t *testing.T) {
	path := filepath.Join(samples.Dir(t, "tsm"), "tennis_frontend_generated_packed.tsm")
	d, err := formats.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	m := NewGraphModel(d, false)
	g := m.View()
	if len(g.Nodes) != 1 || g.Nodes[0].Title != "Const" || m.DocNode(0) != 0 {
		t.Fatalf("view nodes %+v, want the one constant output", g.Nodes)
	}

	// The same holds in any format: a graph output that is a constant stays,
	// the other constants fold.
	chain := chainDoc()
	chain.Graph.Outputs = append(chain.Graph.Outputs, 1)
	m = NewGraphModel(chain, false)
	if m.ViewNode(1) < 0 || m.ViewNode(0) >= 0 {
		t.Errorf("bias (an output) view node %d, weight view node %d", m.ViewNode(1), m.ViewNode(0))
	}
}
