package layout

import "fmt"

// Generated is a synthetic model graph for tests and benchmarks: an operator
// (Tengine tmfile spelling) and a name per node, and the edges between them.
type Generated struct {
	Ops   []string
	Names []string
	Edges []Edge
}

// GenerateCNN builds a CNN-shaped graph of exactly n nodes (n ≥ 0): an input
// and a convolution stem, then residual blocks (convolution, batch norm,
// ReLU, convolution, batch norm, an Eltwise add joining the skip, ReLU; every
// fourth block projects its skip through a strided convolution) with an
// inception-style block (four branches joined by Concat) every sixth block,
// and a pooling, fully connected and softmax head. Leftover nodes extend the
// chain with ReLUs so the count is exact. The same n gives the same graph.
func GenerateCNN(n int) *Generated {
	g := &Generated{}
	if n <= 0 {
		return g
	}
	add := func(op, name string, inputs ...int) int {
		id := len(g.Ops)
		g.Ops = append(g.Ops, op)
		g.Names = append(g.Names, name)
		for _, in := range inputs {
			g.Edges = append(g.Edges, Edge{From: in, To: id})
		}
		return id
	}
	x := add("InputOp", "data")
	const tail = 3
	stem := []string{"Convolution", "BatchNormalization", "ReLu", "Pooling"}
	for i, op := range stem {
		if len(g.Ops)+tail >= n {
			break
		}
		x = add(op, fmt.Sprintf("stem.%d", i), x)
	}
	for block := 0; ; block++ {
		p := fmt.Sprintf("stage%d.block%d.", block/8+1, block%8)
		switch {
		case block%6 == 5:
			if len(g.Ops)+9+tail > n {
				break
			}
			a := add("Convolution", p+"branch1.conv", x)
			b := add("Convolution", p+"branch2.reduce", x)
			b = add("Convolution", p+"branch2.conv", b)
			c := add("Convolution", p+"branch3.reduce", x)
			c = add("Convolution", p+"branch3.conv1", c)
			c = add("Convolution", p+"branch3.conv2", c)
			d := add("Pooling", p+"branch4.pool", x)
			d = add("Convolution", p+"branch4.proj", d)
			x = add("Concat", p+"concat", a, b, c, d)
			continue
		case block%4 == 3:
			if len(g.Ops)+10+tail > n {
				break
			}
			s := add("Convolution", p+"downsample.conv", x)
			s = add("BatchNormalization", p+"downsample.bn", s)
			y := add("Convolution", p+"conv1", x)
			y = add("BatchNormalization", p+"bn1", y)
			y = add("ReLu", p+"relu1", y)
			y = add("Convolution", p+"conv2", y)
			y = add("BatchNormalization", p+"bn2", y)
			y = add("Eltwise", p+"add", y, s)
			x = add("ReLu", p+"relu2", y)
			continue
		default:
			if len(g.Ops)+7+tail > n {
				break
			}
			y := add("Convolution", p+"conv1", x)
			y = add("BatchNormalization", p+"bn1", y)
			y = add("ReLu", p+"relu1", y)
			y = add("Convolution", p+"conv2", y)
			y = add("BatchNormalization", p+"bn2", y)
			y = add("Eltwise", p+"add", y, x)
			x = add("ReLu", p+"relu2", y)
			continue
		}
		break
	}
	for i := 0; len(g.Ops)+tail < n; i++ {
		x = add("ReLu", fmt.Sprintf("extra.%d", i), x)
	}
	head := []string{"Pooling", "FullyConnected", "Softmax"}
	for i, op := range head {
		if len(g.Ops) >= n {
			break
		}
		x = add(op, []string{"head.pool", "head.fc", "prob"}[i], x)
	}
	return g
}

// Graph sizes the generated nodes by estimating their two text lines (the
// operator at 13 units, the name at 11) and returns the layout input.
func (gen *Generated) Graph() *Graph {
	g := &Graph{Nodes: make([]Node, len(gen.Ops)), Edges: gen.Edges}
	for i := range gen.Ops {
		w := max(EstimateTextWidth(gen.Ops[i], 13), EstimateTextWidth(gen.Names[i], 11))
		g.Nodes[i] = Node{Width: max(w+16, 64), Height: 40}
	}
	return g
}
