package graphview

import (
	"tensorscope/graphview/layout"
)

// placeLabels decides which edge labels to draw and where. A tensor read
// by several nodes reaches each of them by its own edge with the same
// label; it is drawn once, beside the outermost of those edges. A label
// that would lie across another edge or a node moves to the other side of
// its edge when that side is clear.
func (s *Scene) placeLabels() {
	res := s.layout
	lr := res.Direction == LeftToRight
	s.labelAt = make([]layout.Point, len(s.graph.Edges))
	type key struct {
		from  int
		label string
	}
	keep := map[key]int{}
	outer := func(e int) float64 { // how far right (or down) the label sits
		if lr {
			return res.Edges[e].Label.Y
		}
		return res.Edges[e].Label.X
	}
	for e, ed := range s.graph.Edges {
		if s.labels[e] == "" {
			continue
		}
		k := key{ed.From, s.labels[e]}
		if prev, ok := keep[k]; ok {
			if outer(e) > outer(prev) {
				s.labels[prev] = ""
				keep[k] = e
			} else {
				s.labels[e] = ""
			}
			continue
		}
		keep[k] = e
	}
	var v visible
	for e := range s.graph.Edges {
		if s.labels[e] == "" {
			continue
		}
		w, h := s.labelSize(e)
		first := res.Edges[e].Label
		second := first
		if lr {
			second.Y = first.Y - 2*layout.LabelGap - h
		} else {
			second.X = first.X - 2*layout.LabelGap - w
		}
		s.labelAt[e] = first
		if s.labelClear(e, first, w, h, &v) || !s.labelClear(e, second, w, h, &v) {
			continue
		}
		s.labelAt[e] = second
	}
}

// labelSize is the box of edge e's label as the layout reserved it.
func (s *Scene) labelSize(e int) (w, h float64) {
	return s.labelW[e], labelSize*lineHeight + 2*labelPadY
}

// labelClear reports whether a label box at p crosses no other edge and
// no node.
func (s *Scene) labelClear(e int, p layout.Point, w, h float64, v *visible) bool {
	r := layout.Rect{Min: p, Max: layout.Point{X: p.X + w, Y: p.Y + h}}
	if p.X < 0 || p.Y < 0 {
		return false
	}
	s.index.query(s, r, v)
	for _, n := range v.nodes {
		if s.layout.Boxes[n].Overlaps(r) {
			return false
		}
	}
	for _, sg := range v.segs {
		if int(s.index.segEdge[sg]) == e {
			continue
		}
		a, b := s.index.segPoints(s, int(sg))
		if r.MeetsSegment(a, b) {
			return false
		}
	}
	return true
}
