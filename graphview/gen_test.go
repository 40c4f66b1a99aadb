package graphview

import (
	"fmt"
	"strings"

	"tensorscope/graphview/layout"
)

// generatedOps spells the generated roles as Tengine tmfile does and
// colours them.
var generatedOps = [layout.NumRoles]struct {
	title    string
	category Category
}{
	layout.RoleInput:      {"InputOp", CategoryInput},
	layout.RoleConv:       {"Convolution", CategoryConvolution},
	layout.RoleNorm:       {"BatchNormalization", CategoryNormalization},
	layout.RoleActivation: {"ReLu", CategoryActivation},
	layout.RolePool:       {"Pooling", CategoryPooling},
	layout.RoleAdd:        {"Eltwise", CategoryTensor},
	layout.RoleConcat:     {"Concat", CategoryTensor},
	layout.RoleDense:      {"FullyConnected", CategoryConvolution},
	layout.RoleSoftmax:    {"Softmax", CategoryActivation},
}

// generated turns layout.GenerateCNN's network into a drawable graph with
// the details and tensor shapes a real model would show.
func generated(n int) *Graph {
	gen := layout.GenerateCNN(n)
	g := &Graph{Nodes: make([]Node, len(gen.Roles))}
	channels := make([]int, len(gen.Roles))
	size := make([]int, len(gen.Roles))
	for i, role := range gen.Roles {
		op := generatedOps[role].title
		nd := Node{Title: op, Subtitle: gen.Names[i], Category: generatedOps[role].category}
		c, s := 64, 56
		for _, e := range gen.Edges {
			if e.To == i {
				c, s = channels[e.From], size[e.From]
				break
			}
		}
		switch op {
		case "InputOp":
			c, s = 3, 224
		case "Convolution":
			k, stride := 3, 1
			if strings.Contains(gen.Names[i], "downsample") || strings.HasPrefix(gen.Names[i], "stem") {
				k, stride = 1, 2
				if strings.HasPrefix(gen.Names[i], "stem") {
					k = 7
				}
			}
			out := c
			if stride == 2 {
				out = min(max(c*2, 64), 512)
				s = max(s/2, 7)
			}
			nd.Details = []string{fmt.Sprintf("%d×%d /%d", k, k, stride), fmt.Sprintf("W %d×%d×%d×%d", out, c, k, k), fmt.Sprintf("B %d", out)}
			c = out
		case "BatchNormalization":
			nd.Details = []string{fmt.Sprintf("mean %d", c), fmt.Sprintf("var %d", c)}
		case "Pooling":
			nd.Details = []string{"max 3×3 /2"}
			s = max(s/2, 1)
		case "FullyConnected":
			nd.Details = []string{fmt.Sprintf("W 1000×%d", c), "B 1000"}
			c, s = 1000, 1
		case "Concat":
			nd.Details = []string{"axis 1"}
		}
		channels[i], size[i] = c, s
		g.Nodes[i] = nd
	}
	for _, e := range gen.Edges {
		label := fmt.Sprintf("1×%d×%d×%d", channels[e.From], size[e.From], size[e.From])
		if size[e.From] == 1 {
			label = fmt.Sprintf("1×%d", channels[e.From])
		}
		g.Edges = append(g.Edges, Edge{From: e.From, To: e.To, Label: label})
	}
	return g
}

// mesh is a wide graph: cols chains of rows nodes, each node also feeding
// the next chain's next node, so layers are cols wide and full of edges.
func mesh(cols, rows int) *Graph {
	g := &Graph{}
	ops := []layout.Role{layout.RoleConv, layout.RoleActivation, layout.RoleNorm, layout.RoleAdd, layout.RoleConcat, layout.RolePool}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			op := generatedOps[ops[(r+c)%len(ops)]]
			g.Nodes = append(g.Nodes, Node{Title: op.title, Subtitle: fmt.Sprintf("n%d_%d", r, c), Category: op.category})
			if r > 0 {
				v := r*cols + c
				g.Edges = append(g.Edges, Edge{From: v - cols, To: v, Label: "1×8×8"})
				if c > 0 {
					g.Edges = append(g.Edges, Edge{From: v - cols - 1, To: v})
				}
			}
		}
	}
	return g
}
