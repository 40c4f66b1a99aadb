package layout

import (
	"context"
	"slices"
)

// layered is one component as a proper layered graph: every edge joins
// adjacent layers, long edges running through chains of dummy vertices.
// Vertices 0..n-1 are the component's nodes, n..nv-1 the dummies.
type layered struct {
	ctx     context.Context // nil or the layout's; checked between sweeps
	n, nv   int
	layers  int
	layer   []int32   // per vertex
	width   []float64 // per vertex, across the flow (0 for dummies)
	height  []float64 // per vertex, along the flow (0 for dummies)
	upOff   []int32   // predecessors of v: up[upOff[v]:upOff[v+1]]
	up      []int32
	downOff []int32 // successors of v: down[downOff[v]:downOff[v+1]]
	down    []int32

	// Per component edge (oriented so that from is in the lower layer):
	from, to   []int32
	dummyStart []int32 // first dummy of the edge's chain; chain is contiguous
	span       []int32 // layer[to] - layer[from]
	detour     []bool  // too long for the dummy budget: routed around

	// Ordering: order[layerStart[l]:layerStart[l+1]] is layer l left to right;
	// pos[v] is v's index within its layer.
	layerStart []int32
	order      []int32
	pos        []int32
}

// dummyBudget bounds the dummy vertices of a component so that memory stays
// linear in the graph size even when many edges span thousands of layers (a
// tensor consumed all along a 50k-node chain). Edges that do not fit, longest
// first, become detours.
func dummyBudget(n, m int) int { return 4*(n+m) + 1024 }

// newLayered builds the layered graph from oriented edges and their layers.
func newLayered(n int, from, to, layer []int32, layers int, width, height []float64) *layered {
	m := len(from)
	g := &layered{n: n, layers: layers, from: from, to: to}
	g.span = make([]int32, m)
	g.dummyStart = make([]int32, m)
	g.detour = make([]bool, m)
	total := 0
	for e := range from {
		g.span[e] = layer[to[e]] - layer[from[e]]
		total += int(g.span[e]) - 1
	}
	if budget := dummyBudget(n, m); total > budget {
		byLength := make([]int32, m)
		for e := range byLength {
			byLength[e] = int32(e)
		}
		slices.SortStableFunc(byLength, func(a, b int32) int { return int(g.span[a] - g.span[b]) })
		total = 0
		for _, e := range byLength {
			if total+int(g.span[e])-1 > budget {
				g.detour[e] = true
				continue
			}
			total += int(g.span[e]) - 1
		}
	}
	g.nv = n + total
	g.layer = make([]int32, g.nv)
	copy(g.layer, layer)
	g.width = make([]float64, g.nv)
	g.height = make([]float64, g.nv)
	copy(g.width, width)
	copy(g.height, height)

	segs := 0
	for e := range from {
		if !g.detour[e] {
			segs += int(g.span[e])
		}
	}
	sf := make([]int32, 0, segs)
	st := make([]int32, 0, segs)
	next := int32(n)
	for e := range from {
		if g.detour[e] {
			g.dummyStart[e] = -1
			continue
		}
		g.dummyStart[e] = next
		prev := from[e]
		for l := layer[from[e]] + 1; l < layer[to[e]]; l++ {
			g.layer[next] = l
			sf, st = append(sf, prev), append(st, next)
			prev = next
			next++
		}
		sf, st = append(sf, prev), append(st, to[e])
	}
	var idx []int32
	g.downOff, idx = csr(g.nv, sf)
	g.down = idx
	for i, s := range idx {
		g.down[i] = st[s]
	}
	g.upOff, idx = csr(g.nv, st)
	g.up = idx
	for i, s := range idx {
		g.up[i] = sf[s]
	}
	return g
}

func (g *layered) isDummy(v int32) bool { return int(v) >= g.n }

// layerOf returns layer l's vertices, left to right.
func (g *layered) layerOf(l int) []int32 { return g.order[g.layerStart[l]:g.layerStart[l+1]] }

func (g *layered) ups(v int32) []int32   { return g.up[g.upOff[v]:g.upOff[v+1]] }
func (g *layered) downs(v int32) []int32 { return g.down[g.downOff[v]:g.downOff[v+1]] }
