package layout

import (
	"math"
	"testing"
)

// checkLayout verifies the invariants every layout must satisfy.
func checkLayout(t *testing.T, g *Graph, res *Result) {
	t.Helper()
	if len(res.Nodes) != len(g.Nodes) || len(res.Edges) != len(g.Edges) {
		t.Fatalf("result has %d nodes, %d edges; want %d, %d", len(res.Nodes), len(res.Edges), len(g.Nodes), len(g.Edges))
	}
	const eps = 1e-6
	in := func(p Point) bool {
		return p.X >= -eps && p.Y >= -eps && p.X <= res.Width+eps && p.Y <= res.Height+eps && !math.IsNaN(p.X) && !math.IsNaN(p.Y)
	}
	for i, b := range res.Boxes {
		if !in(b.Min) || !in(b.Max) {
			t.Fatalf("node %d box %v outside %gx%g", i, b, res.Width, res.Height)
		}
		if w, h := b.Max.X-b.Min.X, b.Max.Y-b.Min.Y; math.Abs(w-g.Nodes[i].Width) > eps || math.Abs(h-g.Nodes[i].Height) > eps {
			t.Fatalf("node %d box %gx%g, want %gx%g", i, w, h, g.Nodes[i].Width, g.Nodes[i].Height)
		}
	}
	if i, j, ok := overlapping(res.Boxes); ok {
		t.Fatalf("nodes %d %v and %d %v overlap", i, res.Boxes[i], j, res.Boxes[j])
	}
	for j, e := range g.Edges {
		r := res.Edges[j]
		if len(r.Points) < 2 {
			t.Fatalf("edge %d has route %v", j, r.Points)
		}
		for _, p := range r.Points {
			if !in(p) {
				t.Fatalf("edge %d point %v outside %gx%g", j, p, res.Width, res.Height)
			}
		}
		if e.From == e.To {
			if !r.SelfLoop {
				t.Fatalf("edge %d is a self-loop not marked so", j)
			}
			continue
		}
		lf, lt := res.Layer[e.From], res.Layer[e.To]
		if r.Reversed {
			lf, lt = lt, lf
		}
		if lf >= lt {
			t.Fatalf("edge %d (%d→%d, reversed %v) runs from layer %d to %d", j, e.From, e.To, r.Reversed, lf, lt)
		}
		if !onBorder(res.Boxes[e.From], r.Points[0]) || !onBorder(res.Boxes[e.To], r.Points[len(r.Points)-1]) {
			t.Fatalf("edge %d route %v does not join box %v to box %v", j, r.Points, res.Boxes[e.From], res.Boxes[e.To])
		}
	}
}

func onBorder(b Rect, p Point) bool {
	const eps = 1e-6
	inside := p.X >= b.Min.X-eps && p.X <= b.Max.X+eps && p.Y >= b.Min.Y-eps && p.Y <= b.Max.Y+eps
	edge := math.Abs(p.X-b.Min.X) < eps || math.Abs(p.X-b.Max.X) < eps || math.Abs(p.Y-b.Min.Y) < eps || math.Abs(p.Y-b.Max.Y) < eps
	return inside && edge
}

// overlapping finds two boxes that overlap, bucketing boxes in a grid of
// cells as large as the largest box so each box meets only its neighbours.
func overlapping(boxes []Rect) (int, int, bool) {
	cw, ch := 1.0, 1.0
	for _, b := range boxes {
		cw, ch = math.Max(cw, b.Max.X-b.Min.X), math.Max(ch, b.Max.Y-b.Min.Y)
	}
	grid := map[[2]int][]int{}
	for i, b := range boxes {
		x0, y0 := int(b.Min.X/cw), int(b.Min.Y/ch)
		for cx := x0; cx <= int(b.Max.X/cw); cx++ {
			for cy := y0; cy <= int(b.Max.Y/ch); cy++ {
				for _, j := range grid[[2]int{cx, cy}] {
					if b.Overlaps(boxes[j]) {
						return j, i, true
					}
				}
				grid[[2]int{cx, cy}] = append(grid[[2]int{cx, cy}], i)
			}
		}
	}
	return 0, 0, false
}

// routeHitsBox reports the first box other than the edge's own that a
// route segment passes through (shrunk by a margin so touching is allowed).
func routeHitsBox(res *Result, g *Graph, j int) (int, bool) {
	e := g.Edges[j]
	pts := res.Edges[j].Points
	for v, b := range res.Boxes {
		if v == e.From || v == e.To {
			continue
		}
		b.Min.X, b.Min.Y, b.Max.X, b.Max.Y = b.Min.X+1, b.Min.Y+1, b.Max.X-1, b.Max.Y-1
		for i := 1; i < len(pts); i++ {
			if b.MeetsSegment(pts[i-1], pts[i]) {
				return v, true
			}
		}
	}
	return 0, false
}
