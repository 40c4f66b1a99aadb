package layout

import "fmt"

// Generated is a synthetic model graph for tests and benchmarks: what each
// node does and its name, and the edges between them. Callers spell the
// roles as operator names (tests use Tengine's), so no format's names live
// here.
type Generated struct {
	Roles []Role
	Names []string
	Edges []Edge
}

// Role is what a generated node does.
type Role uint8

// Roles of generated nodes.
const (
	RoleInput Role = iota
	RoleConv
	RoleNorm
	RoleActivation
	RolePool
	RoleAdd
	RoleConcat
	RoleDense
	RoleSoftmax
	NumRoles
)

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
	add := func(op Role, name string, inputs ...int) int {
		id := len(g.Roles)
		g.Roles = append(g.Roles, op)
		g.Names = append(g.Names, name)
		for _, in := range inputs {
			g.Edges = append(g.Edges, Edge{From: in, To: id})
		}
		return id
	}
	x := add(RoleInput, "data")
	const tail = 3
	stem := []Role{RoleConv, RoleNorm, RoleActivation, RolePool}
	for i, op := range stem {
		if len(g.Roles)+tail >= n {
			break
		}
		x = add(op, fmt.Sprintf("stem.%d", i), x)
	}
	for block := 0; ; block++ {
		p := fmt.Sprintf("stage%d.block%d.", block/8+1, block%8)
		switch {
		case block%6 == 5:
			if len(g.Roles)+9+tail > n {
				break
			}
			a := add(RoleConv, p+"branch1.conv", x)
			b := add(RoleConv, p+"branch2.reduce", x)
			b = add(RoleConv, p+"branch2.conv", b)
			c := add(RoleConv, p+"branch3.reduce", x)
			c = add(RoleConv, p+"branch3.conv1", c)
			c = add(RoleConv, p+"branch3.conv2", c)
			d := add(RolePool, p+"branch4.pool", x)
			d = add(RoleConv, p+"branch4.proj", d)
			x = add(RoleConcat, p+"concat", a, b, c, d)
			continue
		case block%4 == 3:
			if len(g.Roles)+10+tail > n {
				break
			}
			s := add(RoleConv, p+"downsample.conv", x)
			s = add(RoleNorm, p+"downsample.bn", s)
			y := add(RoleConv, p+"conv1", x)
			y = add(RoleNorm, p+"bn1", y)
			y = add(RoleActivation, p+"relu1", y)
			y = add(RoleConv, p+"conv2", y)
			y = add(RoleNorm, p+"bn2", y)
			y = add(RoleAdd, p+"add", y, s)
			x = add(RoleActivation, p+"relu2", y)
			continue
		default:
			if len(g.Roles)+7+tail > n {
				break
			}
			y := add(RoleConv, p+"conv1", x)
			y = add(RoleNorm, p+"bn1", y)
			y = add(RoleActivation, p+"relu1", y)
			y = add(RoleConv, p+"conv2", y)
			y = add(RoleNorm, p+"bn2", y)
			y = add(RoleAdd, p+"add", y, x)
			x = add(RoleActivation, p+"relu2", y)
			continue
		}
		break
	}
	for i := 0; len(g.Roles)+tail < n; i++ {
		x = add(RoleActivation, fmt.Sprintf("extra.%d", i), x)
	}
	head := []Role{RolePool, RoleDense, RoleSoftmax}
	for i, op := range head {
		if len(g.Roles) >= n {
			break
		}
		x = add(op, []string{"head.pool", "head.fc", "prob"}[i], x)
	}
	return g
}

// Graph sizes the generated nodes by estimating their two text lines (the
// operator, as title spells each role, at 13 units, the name at 11) and
// returns the layout input.
func (gen *Generated) Graph(title func(Role) string) *Graph {
	g := &Graph{Nodes: make([]Node, len(gen.Roles)), Edges: gen.Edges}
	for i, r := range gen.Roles {
		w := max(EstimateTextWidth(title(r), 13), EstimateTextWidth(gen.Names[i], 11))
		g.Nodes[i] = Node{Width: max(w+16, 64), Height: 40}
	}
	return g
}
