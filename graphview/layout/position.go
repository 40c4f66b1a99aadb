package layout

import (
	"math"
	"slices"
)

// assignX places the vertices across the flow with the method of Brandes and
// Köpf ("Fast and simple horizontal coordinate assignment", 2001, with the
// block-graph compaction dagre uses): four alignments (towards the upper or
// lower neighbours, from the left or the right) each put vertices in blocks
// with a median neighbour and pack the blocks tightly; the result is the
// average of the two median candidates. Inner segments (dummy to dummy) win
// conflicts, so long edges run straight; so do chains of single-input nodes.
// Linear in the size of the layered graph. Returns centres, smallest at 0,
// or the context's error once it is cancelled.
func assignX(g *layered, nodeSep, edgeSep float64) ([]float64, error) {
	b := newBK(g, nodeSep, edgeSep)
	var xs [4][]float64
	for i := range xs {
		if err := cancelled(g.ctx); err != nil {
			return nil, err
		}
		xs[i] = b.alignment(i&1 == 1, i&2 == 2)
	}
	// Align the four candidates to the narrowest one: left alignments by
	// their minimum, right ones by their maximum.
	narrowest, narrowW := 0, math.Inf(1)
	for i, x := range xs {
		lo, hi := b.extent(x)
		if hi-lo < narrowW {
			narrowest, narrowW = i, hi-lo
		}
	}
	minOf := func(x []float64) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, v := range x {
			lo, hi = min(lo, v), max(hi, v)
		}
		return lo, hi
	}
	refLo, refHi := minOf(xs[narrowest])
	for i, x := range xs {
		if i == narrowest {
			continue
		}
		lo, hi := minOf(x)
		delta := refLo - lo
		if i&2 == 2 { // from the right
			delta = refHi - hi
		}
		for v := range x {
			x[v] += delta
		}
	}
	out := make([]float64, g.nv)
	var four [4]float64
	for v := range out {
		for i := range xs {
			four[i] = xs[i][v]
		}
		slices.Sort(four[:])
		out[v] = (four[1] + four[2]) / 2
	}
	lo, _ := b.extent(out)
	for v := range out {
		out[v] -= lo
	}
	return out, nil
}

type bk struct {
	g                *layered
	nodeSep, edgeSep float64
	// conflict[i] marks the layered edge up[i] → v: a non-inner segment that
	// crosses an inner one (type 1 conflict), never used for alignment.
	conflict []bool
	// upSlot[j] is, for the edge down[j], its index in up.
	upSlot []int32
	root   []int32
	pos    []int32 // position within the layer in the current direction
}

func newBK(g *layered, nodeSep, edgeSep float64) *bk {
	b := &bk{g: g, nodeSep: nodeSep, edgeSep: edgeSep}
	// Sort adjacency by position so medians are picked by index.
	byPos := func(a, c int32) int { return int(g.pos[a] - g.pos[c]) }
	for v := 0; v < g.nv; v++ {
		slices.SortFunc(g.up[g.upOff[v]:g.upOff[v+1]], byPos)
		slices.SortFunc(g.down[g.downOff[v]:g.downOff[v+1]], byPos)
	}
	// Visiting vertices left to right, each one's up-edges appear in the
	// down-lists of its predecessors in the same order, so one cursor per
	// vertex pairs the two slots of every edge (parallel edges included).
	b.upSlot = make([]int32, len(g.down))
	cursor := make([]int32, g.nv)
	for l := 0; l < g.layers; l++ {
		for _, v := range g.layerOf(l) {
			for s := g.upOff[v]; s < g.upOff[v+1]; s++ {
				u := g.up[s]
				b.upSlot[g.downOff[u]+cursor[u]] = s
				cursor[u]++
			}
		}
	}
	b.markConflicts()
	b.root = make([]int32, g.nv)
	b.pos = make([]int32, g.nv)
	return b
}

// markConflicts finds type 1 conflicts layer by layer (Brandes–Köpf alg. 1).
func (b *bk) markConflicts() {
	g := b.g
	b.conflict = make([]bool, len(g.up))
	for l := 1; l < g.layers; l++ {
		prevLen := int32(g.layerStart[l] - g.layerStart[l-1])
		vs := g.layerOf(l)
		k0, scan := int32(0), 0
		for i, v := range vs {
			// The upper end of v's inner segment, if v is a dummy fed by a dummy.
			inner := int32(-1)
			if g.isDummy(v) {
				for _, u := range g.ups(v) {
					if g.isDummy(u) {
						inner = u
						break
					}
				}
			}
			if inner < 0 && i != len(vs)-1 {
				continue
			}
			k1 := prevLen
			if inner >= 0 {
				k1 = g.pos[inner]
			}
			for ; scan <= i; scan++ {
				w := vs[scan]
				for s := g.upOff[w]; s < g.upOff[w+1]; s++ {
					u := g.up[s]
					if (g.pos[u] < k0 || g.pos[u] > k1) && !(g.isDummy(u) && g.isDummy(w)) {
						b.conflict[s] = true
					}
				}
			}
			k0 = k1
		}
	}
}

// extent is the span of the boxes placed at centres x.
func (b *bk) extent(x []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for v, c := range x {
		w := b.g.width[v] / 2
		lo, hi = min(lo, c-w), max(hi, c+w)
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

// sep is the least distance between the centres of neighbours a and c.
func (b *bk) sep(a, c int32) float64 {
	g := b.g
	s := (g.width[a] + g.width[c]) / 2
	for _, v := range [2]int32{a, c} {
		if g.isDummy(v) {
			s += b.edgeSep / 2
		} else {
			s += b.nodeSep / 2
		}
	}
	return s
}

// alignment computes one of the four candidate placements: blocks aligned
// with upper (fromBelow=false) or lower neighbours, packed from the left or,
// mirrored, from the right.
func (b *bk) alignment(fromBelow, fromRight bool) []float64 {
	g := b.g
	for l := 0; l < g.layers; l++ {
		vs := g.layerOf(l)
		for i, v := range vs {
			b.root[v] = v
			if fromRight {
				b.pos[v] = int32(len(vs) - 1 - i)
			} else {
				b.pos[v] = int32(i)
			}
		}
	}
	align := make([]int32, g.nv)
	for v := range align {
		align[v] = int32(v)
	}
	// Vertical alignment.
	for li := 0; li < g.layers; li++ {
		l := li
		if fromBelow {
			l = g.layers - 1 - li
		}
		vs := g.layerOf(l)
		prev := int32(-1)
		for k := range vs {
			v := vs[k]
			if fromRight {
				v = vs[len(vs)-1-k]
			}
			off, end := g.upOff[v], g.upOff[v+1]
			if fromBelow {
				off, end = g.downOff[v], g.downOff[v+1]
			}
			d := int(end - off)
			if d == 0 {
				continue
			}
			for _, m := range [2]int{(d - 1) / 2, d / 2} {
				slot := off + int32(m)
				if fromRight {
					slot = end - 1 - int32(m)
				}
				var w int32
				var conflict bool
				if fromBelow {
					w = g.down[slot]
					conflict = b.conflict[b.upSlot[slot]]
				} else {
					w = g.up[slot]
					conflict = b.conflict[slot]
				}
				if align[v] == v && prev < b.pos[w] && !conflict {
					align[w] = v
					b.root[v] = b.root[w]
					align[v] = b.root[v]
					prev = b.pos[w]
				}
			}
		}
	}
	return b.compact(fromRight)
}

// compact places the blocks as far left as their separations allow (in the
// mirrored frame when fromRight), then pulls each block right towards its
// right neighbours where there is slack.
func (b *bk) compact(fromRight bool) []float64 {
	g := b.g
	// Block graph: an edge from the block of each vertex to the block of its
	// right neighbour (in the current direction), weighted by separation.
	var bf, bt []int32
	var bw []float64
	for l := 0; l < g.layers; l++ {
		vs := g.layerOf(l)
		for k := 1; k < len(vs); k++ {
			a, c := vs[k-1], vs[k]
			if fromRight {
				a, c = vs[len(vs)-k], vs[len(vs)-1-k]
			}
			bf = append(bf, b.root[a])
			bt = append(bt, b.root[c])
			bw = append(bw, b.sep(a, c))
		}
	}
	inOff, inAdj := csr(g.nv, bt)
	outOff, outAdj := csr(g.nv, bf)
	// Topological order of the blocks (the block graph is acyclic because
	// alignments never cross).
	indeg := make([]int32, g.nv)
	for _, t := range bt {
		indeg[t]++
	}
	topo := make([]int32, 0, g.nv)
	for v := 0; v < g.nv; v++ {
		if b.root[v] == int32(v) && indeg[v] == 0 {
			topo = append(topo, int32(v))
		}
	}
	for head := 0; head < len(topo); head++ {
		v := topo[head]
		for _, e := range outAdj[outOff[v]:outOff[v+1]] {
			t := bt[e]
			indeg[t]--
			if indeg[t] == 0 {
				topo = append(topo, t)
			}
		}
	}
	x := make([]float64, g.nv)
	for _, v := range topo {
		for _, e := range inAdj[inOff[v]:inOff[v+1]] {
			x[v] = max(x[v], x[bf[e]]+bw[e])
		}
	}
	for i := len(topo) - 1; i >= 0; i-- {
		v := topo[i]
		limit := math.Inf(1)
		for _, e := range outAdj[outOff[v]:outOff[v+1]] {
			limit = min(limit, x[bt[e]]-bw[e])
		}
		if !math.IsInf(limit, 1) {
			x[v] = max(x[v], limit)
		}
	}
	out := make([]float64, g.nv)
	for v := range out {
		out[v] = x[b.root[v]]
		if fromRight {
			out[v] = -out[v]
		}
	}
	return out
}
