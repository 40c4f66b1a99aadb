package layout

import (
	"cmp"
	"slices"
)

// Sweep counts. The plain barycenter phase is what the result is compared
// against (Stats.BaselineCrossings); the refinement phase alternates median
// and barycenter sweeps with transpositions and stops early once it stops
// improving.
const (
	baselineSweeps   = 4
	refineSweeps     = 20
	refinePatience   = 4
	transposeRounds  = 4
	largeGraphSweeps = 8 // refinement sweeps for components over largeGraph vertices
	largeGraph       = 200_000
)

// orderer runs crossing reduction on a layered graph.
type orderer struct {
	g     *layered
	cc    crossingCounter
	keys  []sortItem
	fixed []bool
	nb    []float64
	nbA   []int32
	nbB   []int32
}

type sortItem struct {
	key float64
	pos int32
	v   int32
}

// order sets g.order/g.pos to an ordering with few crossings. It returns
// the crossings left by the plain barycenter sweep (from vertices in index
// order) and those of the chosen ordering, which is the best of: that sweep,
// the same sweeps from a depth-first order, and the refinement of the better
// one. The result is therefore never worse than the plain sweep.
func order(g *layered) (baseline, final int, err error) {
	o := &orderer{g: g}
	o.initial(false)
	best := slices.Clone(g.order)
	bestC := o.cc.total(g)
	keep := func() bool {
		c := o.cc.total(g)
		if c < bestC {
			bestC = c
			copy(best, g.order)
			return true
		}
		return false
	}
	restore := func() {
		copy(g.order, best)
		o.reindex()
	}
	for i := 0; i < baselineSweeps; i++ {
		if err := o.sweep(i%2 == 0, false); err != nil {
			return 0, 0, err
		}
		keep()
	}
	baseline = o.cc.total(g)
	o.initial(true)
	keep()
	for i := 0; i < baselineSweeps && bestC > 0; i++ {
		if err := o.sweep(i%2 == 0, false); err != nil {
			return 0, 0, err
		}
		keep()
	}
	restore()
	sweeps := refineSweeps
	if g.nv > largeGraph {
		sweeps = largeGraphSweeps
	}
	for i, stale := 0, 0; i < sweeps && stale < refinePatience && bestC > 0; i++ {
		if err := o.sweep(i%2 == 0, i%4 < 2); err != nil {
			return 0, 0, err
		}
		o.transpose()
		if keep() {
			stale = 0
		} else {
			stale++
		}
	}
	restore()
	return baseline, bestC, nil
}

// initial orders each layer by vertex index or, with dfs, by a depth-first
// search from the vertices in layer order, which keeps chains and subtrees
// contiguous before any sweep.
func (o *orderer) initial(dfs bool) {
	g := o.g
	if g.layerStart == nil {
		g.layerStart = make([]int32, g.layers+1)
		for _, l := range g.layer {
			g.layerStart[l+1]++
		}
		for l := 0; l < g.layers; l++ {
			g.layerStart[l+1] += g.layerStart[l]
		}
		g.order = make([]int32, g.nv)
		g.pos = make([]int32, g.nv)
	}
	fill := slices.Clone(g.layerStart[:g.layers])
	for v, l := range g.layer {
		g.order[fill[l]] = int32(v)
		fill[l]++
	}
	if !dfs {
		o.reindex()
		return
	}
	byLayer := slices.Clone(g.order)
	copy(fill, g.layerStart[:g.layers])
	visited := make([]bool, g.nv)
	var stack []int32
	for _, root := range byLayer {
		if visited[root] {
			continue
		}
		visited[root] = true
		stack = append(stack[:0], root)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			l := g.layer[v]
			g.pos[v] = fill[l] - g.layerStart[l]
			g.order[fill[l]] = v
			fill[l]++
			ds := g.downs(v)
			for i := len(ds) - 1; i >= 0; i-- {
				if w := ds[i]; !visited[w] {
					visited[w] = true
					stack = append(stack, w)
				}
			}
		}
	}
}

func (o *orderer) reindex() {
	g := o.g
	for l := 0; l < g.layers; l++ {
		for i, v := range g.layerOf(l) {
			g.pos[v] = int32(i)
		}
	}
}

// sweep reorders every layer by the positions of its neighbours in the layer
// before it: downwards (neighbours above) or upwards (neighbours below), by
// barycenter or weighted median. Vertices without neighbours on that side
// keep their places.
func (o *orderer) sweep(downwards, median bool) error {
	if err := cancelled(o.g.ctx); err != nil {
		return err
	}
	g := o.g
	if downwards {
		for l := 1; l < g.layers; l++ {
			o.reorder(l, true, median)
		}
	} else {
		for l := g.layers - 2; l >= 0; l-- {
			o.reorder(l, false, median)
		}
	}
	return nil
}

func (o *orderer) reorder(l int, useUp, median bool) {
	g := o.g
	vs := g.layerOf(l)
	if len(vs) < 2 {
		return
	}
	o.keys = o.keys[:0]
	if cap(o.fixed) < len(vs) {
		o.fixed = make([]bool, len(vs))
	}
	fixed := o.fixed[:len(vs)]
	for i, v := range vs {
		nbs := g.downs(v)
		if useUp {
			nbs = g.ups(v)
		}
		fixed[i] = len(nbs) == 0
		if fixed[i] {
			continue
		}
		var key float64
		if median {
			key = o.medianOf(nbs)
		} else {
			sum := 0
			for _, w := range nbs {
				sum += int(g.pos[w])
			}
			key = float64(sum) / float64(len(nbs))
		}
		o.keys = append(o.keys, sortItem{key, int32(i), v})
	}
	slices.SortFunc(o.keys, func(a, b sortItem) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.pos, b.pos)
	})
	k := 0
	for i := range vs {
		if fixed[i] {
			continue
		}
		vs[i] = o.keys[k].v
		k++
	}
	for i, v := range vs {
		g.pos[v] = int32(i)
	}
}

// medianOf is the weighted median of the neighbours' positions (Gansner et
// al.): with an even count it leans towards the side whose positions are
// packed more tightly.
func (o *orderer) medianOf(nbs []int32) float64 {
	g := o.g
	o.nb = o.nb[:0]
	for _, w := range nbs {
		o.nb = append(o.nb, float64(g.pos[w]))
	}
	p := o.nb
	if len(p) > 1 {
		slices.Sort(p)
	}
	m := len(p) / 2
	switch {
	case len(p)%2 == 1:
		return p[m]
	case len(p) == 2:
		return (p[0] + p[1]) / 2
	}
	left := p[m-1] - p[0]
	right := p[len(p)-1] - p[m]
	if left+right == 0 {
		return (p[m-1] + p[m]) / 2
	}
	return (p[m-1]*right + p[m]*left) / (left + right)
}

// transpose swaps neighbouring vertices of a layer whenever that strictly
// reduces the crossings among their edges (on both sides), which can only
// lower the total, until a round changes nothing.
func (o *orderer) transpose() {
	g := o.g
	for round := 0; round < transposeRounds; round++ {
		improved := false
		for l := 0; l < g.layers; l++ {
			vs := g.layerOf(l)
			for i := 0; i+1 < len(vs); i++ {
				v, w := vs[i], vs[i+1]
				keep := o.pairCrossings(g.ups(v), g.ups(w)) + o.pairCrossings(g.downs(v), g.downs(w))
				swap := o.pairCrossings(g.ups(w), g.ups(v)) + o.pairCrossings(g.downs(w), g.downs(v))
				if swap < keep {
					vs[i], vs[i+1] = w, v
					g.pos[v], g.pos[w] = int32(i+1), int32(i)
					improved = true
				}
			}
		}
		if !improved {
			return
		}
	}
}

// pairCrossings counts the crossings between the edges from a vertex placed
// left (neighbours a) and one placed right of it (neighbours b): pairs with
// the left vertex's neighbour strictly right of the right vertex's.
func (o *orderer) pairCrossings(a, b []int32) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	g := o.g
	o.nbA = o.nbA[:0]
	for _, x := range a {
		o.nbA = append(o.nbA, g.pos[x])
	}
	o.nbB = o.nbB[:0]
	for _, x := range b {
		o.nbB = append(o.nbB, g.pos[x])
	}
	slices.Sort(o.nbA)
	slices.Sort(o.nbB)
	count, j := 0, 0
	for _, p := range o.nbA {
		for j < len(o.nbB) && o.nbB[j] < p {
			j++
		}
		count += j
	}
	return count
}
