package formats

import (
	"sort"

	"tensorscope/tensor"
)

// Graph is a model's node graph. Nodes consume and produce Values (the
// graph's edges: tensors flowing between nodes); a Value may name the
// document tensor that holds its data.
type Graph struct {
	Nodes   []Node
	Values  []Value
	Inputs  []int // node ids of the graph inputs
	Outputs []int // node ids of the graph outputs
	// OutputValues are the graph's outputs themselves, indices into
	// Values in the file's order (a Split feeding four outputs is one
	// node of Outputs and four values here); nil when the codec does not
	// list them.
	OutputValues []int
}

// NodeKind separates ordinary operators from the producers of weights and
// graph inputs, which a view may fold away.
type NodeKind uint8

const (
	KindOp    NodeKind = iota
	KindConst          // produces a constant / weight (tmfile Const, tsm <const>)
	KindInput          // produces a graph input (tmfile InputOp, tsm <param>)
)

// Node is one node of the file, in file order; ID is its index.
type Node struct {
	ID       int
	Name     string
	Op       string
	Kind     NodeKind
	Attrs    []Attr
	Reserved []Attr // format-reserved parameters (tsm "#..." params), shown apart
	Inputs   []int  // indices into Graph.Values
	Outputs  []int  // indices into Graph.Values

	Meaning   Meaning    // normalised meaning, filled in by the codec
	Subgraphs []Subgraph // nested graphs (ONNX If/Loop/Scan), in attribute order
}

// Value is an edge of the graph: a tensor produced by one node (or none) and
// consumed by others.
type Value struct {
	Name  string
	DType tensor.DType // Invalid when unknown
	Shape []int        // nil when unknown; -1 for a dim of unknown size
	// DimNames holds, per dim, the symbolic name of a dim whose size is
	// not fixed ("batch"; ONNX dim_param), "" for the others; nil when no
	// dim is named.
	DimNames []string
	Producer int // node id, -1 when none
	Tensor   int // index into Document.Tensors, -1 when none
}

// Consumers returns, for each value, the ids of the nodes that read it,
// in node order.
func (g *Graph) Consumers() [][]int {
	out := make([][]int, len(g.Values))
	for _, n := range g.Nodes {
		for _, v := range n.Inputs {
			if v >= 0 && v < len(out) {
				out[v] = append(out[v], n.ID)
			}
		}
	}
	return out
}

// OpCount is how many nodes of a graph run one operator.
type OpCount struct {
	Op    string
	Nodes int
}

// OpCounts lists the graph's operators, most frequent first (ties by name).
func (g *Graph) OpCounts() []OpCount {
	counts := map[string]int{}
	for _, n := range g.Nodes {
		counts[n.Op]++
	}
	out := make([]OpCount, 0, len(counts))
	for op, n := range counts {
		out = append(out, OpCount{op, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Nodes != out[j].Nodes {
			return out[i].Nodes > out[j].Nodes
		}
		return out[i].Op < out[j].Op
	})
	return out
}
