package graphview

import (
	"math"

	"tensorscope/graphview/layout"
)

// grid is a uniform spatial index over the scene: each cell lists the node
// boxes and edge segments that touch it, so a viewport query costs the
// cells it covers plus what they hold, not the graph size. Segments
// spanning many cells (detours round the drawing) sit in one list checked
// on every query instead of being copied into every cell.
type grid struct {
	cell       float64
	cols, rows int
	nodeOff    []int32 // nodes of cell c: nodes[nodeOff[c]:nodeOff[c+1]]
	nodes      []int32
	segOff     []int32
	segs       []int32
	long       []int32
	// Segment s is edge segEdge[s], from its point segAt[s] to segAt[s]+1.
	segEdge []int32
	segAt   []int32
}

const maxCellsPerSegment = 16

func newGrid(s *Scene) *grid {
	w, h := s.Size()
	n := len(s.graph.Nodes)
	g := &grid{cell: math.Max(32, 2*math.Sqrt(w*h/float64(max(n, 1))))}
	g.cols = int(w/g.cell) + 1
	g.rows = int(h/g.cell) + 1
	cells := g.cols * g.rows

	for e, r := range s.layout.Edges {
		for k := 0; k+1 < len(r.Points); k++ {
			g.segEdge = append(g.segEdge, int32(e))
			g.segAt = append(g.segAt, int32(k))
		}
	}
	// Two passes each: count per cell, then fill.
	g.nodeOff = make([]int32, cells+1)
	g.segOff = make([]int32, cells+1)
	forNode := func(v int, f func(c int)) {
		g.forCells(s.layout.Boxes[v], f)
	}
	forSeg := func(i int, f func(c int)) {
		a, b := g.segPoints(s, i)
		r := layout.Rect{Min: layout.Point{X: math.Min(a.X, b.X), Y: math.Min(a.Y, b.Y)},
			Max: layout.Point{X: math.Max(a.X, b.X), Y: math.Max(a.Y, b.Y)}}
		g.forCells(r, f)
	}
	isLong := make([]bool, len(g.segEdge))
	for v := 0; v < n; v++ {
		forNode(v, func(c int) { g.nodeOff[c+1]++ })
	}
	for i := range g.segEdge {
		a, b := g.segPoints(s, i)
		x0, y0 := g.cellOf(math.Min(a.X, b.X), math.Min(a.Y, b.Y))
		x1, y1 := g.cellOf(math.Max(a.X, b.X), math.Max(a.Y, b.Y))
		if (x1-x0+1)*(y1-y0+1) > maxCellsPerSegment {
			isLong[i] = true
			g.long = append(g.long, int32(i))
			continue
		}
		forSeg(i, func(c int) { g.segOff[c+1]++ })
	}
	for c := 0; c < cells; c++ {
		g.nodeOff[c+1] += g.nodeOff[c]
		g.segOff[c+1] += g.segOff[c]
	}
	g.nodes = make([]int32, g.nodeOff[cells])
	g.segs = make([]int32, g.segOff[cells])
	fill := make([]int32, cells)
	copy(fill, g.nodeOff[:cells])
	for v := 0; v < n; v++ {
		forNode(v, func(c int) { g.nodes[fill[c]] = int32(v); fill[c]++ })
	}
	copy(fill, g.segOff[:cells])
	for i := range g.segEdge {
		if !isLong[i] {
			forSeg(i, func(c int) { g.segs[fill[c]] = int32(i); fill[c]++ })
		}
	}
	return g
}

func (g *grid) cellOf(x, y float64) (int, int) {
	cx := min(max(int(x/g.cell), 0), g.cols-1)
	cy := min(max(int(y/g.cell), 0), g.rows-1)
	return cx, cy
}

func (g *grid) forCells(r layout.Rect, f func(c int)) {
	x0, y0 := g.cellOf(r.Min.X, r.Min.Y)
	x1, y1 := g.cellOf(r.Max.X, r.Max.Y)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			f(cy*g.cols + cx)
		}
	}
}

func (g *grid) segPoints(s *Scene, i int) (a, b layout.Point) {
	pts := s.layout.Edges[g.segEdge[i]].Points
	k := g.segAt[i]
	return pts[k], pts[k+1]
}

// visible collects what a viewport shows, deduplicated with epoch stamps
// so a query allocates nothing once the buffers have grown.
type visible struct {
	nodes, segs         []int32
	nodeStamp, segStamp []uint32
	epoch               uint32
}

// query fills v with the nodes and segments whose cells meet r, in cell
// order (deterministic), then the long segments whose bounds meet r.
func (g *grid) query(s *Scene, r layout.Rect, v *visible) {
	if len(v.nodeStamp) != len(s.graph.Nodes) || len(v.segStamp) != len(g.segEdge) {
		v.nodeStamp = make([]uint32, len(s.graph.Nodes))
		v.segStamp = make([]uint32, len(g.segEdge))
		v.epoch = 0
	}
	v.epoch++
	if v.epoch == 0 { // wrapped: stale stamps could match again
		clear(v.nodeStamp)
		clear(v.segStamp)
		v.epoch = 1
	}
	v.nodes, v.segs = v.nodes[:0], v.segs[:0]
	w, h := s.Size()
	if r.Max.X < 0 || r.Max.Y < 0 || r.Min.X > w || r.Min.Y > h {
		return
	}
	g.forCells(r, func(c int) {
		for _, n := range g.nodes[g.nodeOff[c]:g.nodeOff[c+1]] {
			if v.nodeStamp[n] != v.epoch {
				v.nodeStamp[n] = v.epoch
				if s.layout.Boxes[n].Overlaps(r) {
					v.nodes = append(v.nodes, n)
				}
			}
		}
		for _, sg := range g.segs[g.segOff[c]:g.segOff[c+1]] {
			if v.segStamp[sg] != v.epoch {
				v.segStamp[sg] = v.epoch
				v.segs = append(v.segs, sg)
			}
		}
	})
	for _, sg := range g.long {
		a, b := g.segPoints(s, int(sg))
		if math.Max(a.X, b.X) >= r.Min.X && math.Min(a.X, b.X) <= r.Max.X &&
			math.Max(a.Y, b.Y) >= r.Min.Y && math.Min(a.Y, b.Y) <= r.Max.Y {
			v.segs = append(v.segs, sg)
		}
	}
}

func (g *grid) nodeAt(s *Scene, p layout.Point) int {
	w, h := s.Size()
	if p.X < 0 || p.Y < 0 || p.X > w || p.Y > h {
		return -1
	}
	cx, cy := g.cellOf(p.X, p.Y)
	c := cy*g.cols + cx
	for _, n := range g.nodes[g.nodeOff[c]:g.nodeOff[c+1]] {
		if s.layout.Boxes[n].Contains(p) {
			return int(n)
		}
	}
	return -1
}

func (g *grid) edgeAt(s *Scene, p layout.Point, tol float64) int {
	best, bestD := -1, tol
	try := func(sg int32) {
		a, b := g.segPoints(s, int(sg))
		if d := segmentDistance(p, a, b); d <= bestD {
			best, bestD = int(g.segEdge[sg]), d
		}
	}
	r := layout.Rect{Min: layout.Point{X: p.X - tol, Y: p.Y - tol}, Max: layout.Point{X: p.X + tol, Y: p.Y + tol}}
	g.forCells(r, func(c int) {
		for _, sg := range g.segs[g.segOff[c]:g.segOff[c+1]] {
			try(sg)
		}
	})
	for _, sg := range g.long {
		try(sg)
	}
	return best
}

// segmentDistance is the distance from p to the segment ab.
func segmentDistance(p, a, b layout.Point) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l))
	}
	return math.Hypot(p.X-(a.X+t*dx), p.Y-(a.Y+t*dy))
}
