package graphview

import (
	"math"

	"tensorscope/graphview/layout"
)

// Drawing geometry shared by the widget and the exports, at zoom 1.

type textRole uint8

const (
	roleTitle textRole = iota
	roleSubtitle
	roleDetail
)

// textLine is one line of text in a node: its left edge and line box.
type textLine struct {
	x, top, height float64
	text           string
	size           float64
	bold           bool
	role           textRole
}

// nodeLines lays out node v's text lines into dst (reused).
func (s *Scene) nodeLines(v int, dst []textLine) []textLine {
	b := s.layout.Boxes[v]
	sn := &s.nodes[v]
	x := b.Min.X + padX
	dst = append(dst[:0], textLine{x, b.Min.Y + padY, titleSize * lineHeight, sn.title, titleSize, true, roleTitle})
	y := b.Min.Y + float64(headerHeight()) + padY
	if sn.subtitle != "" {
		dst = append(dst, textLine{x, y, subtitleSize * lineHeight, sn.subtitle, subtitleSize, false, roleSubtitle})
		y += subtitleSize * lineHeight
	}
	for _, d := range sn.details {
		dst = append(dst, textLine{x, y, detailSize * lineHeight, d, detailSize, false, roleDetail})
		y += detailSize * lineHeight
	}
	return dst
}

// hasBody reports whether node v has lines below its header.
func (s *Scene) hasBody(v int) bool {
	return s.nodes[v].subtitle != "" || len(s.nodes[v].details) > 0
}

// headerRect is the coloured top of node v (the whole box when it has no body).
func (s *Scene) headerRect(v int) layout.Rect {
	b := s.layout.Boxes[v]
	if s.hasBody(v) {
		b.Max.Y = b.Min.Y + float64(headerHeight())
	}
	return b
}

// arrowHead returns the tip and the two base corners of the arrowhead at the
// end of a route, and the point where the line should stop (the middle of
// the base, so a thick line does not blunt the tip).
func arrowHead(pts []layout.Point, size float64) (tip, left, right, base layout.Point) {
	tip = pts[len(pts)-1]
	prev := pts[len(pts)-2]
	dx, dy := tip.X-prev.X, tip.Y-prev.Y
	l := math.Hypot(dx, dy)
	if l == 0 {
		dx, dy, l = 0, 1, 1
	}
	dx, dy = dx/l, dy/l
	base = layout.Point{X: tip.X - dx*size, Y: tip.Y - dy*size}
	half := size * 0.45
	left = layout.Point{X: base.X - dy*half, Y: base.Y + dx*half}
	right = layout.Point{X: base.X + dy*half, Y: base.Y - dx*half}
	return tip, left, right, base
}

// pathOp is one step of a smoothed edge path.
type pathOp struct {
	quad bool         // quadratic curve with control ctrl to p; else line to p
	ctrl layout.Point // control point of a curve
	p    layout.Point
}

// edgeCorner is the radius edges' corners are rounded with.
const edgeCorner = 10

// corner returns where the rounded corner at pts[i] (an interior point)
// starts and ends: up to r before and after it along the two segments,
// less where they are short. ok is false when there is nothing to round.
func corner(pts []layout.Point, i int, r float64) (in, out layout.Point, ok bool) {
	a, c, b := pts[i-1], pts[i], pts[i+1]
	lin, lout := math.Hypot(c.X-a.X, c.Y-a.Y), math.Hypot(b.X-c.X, b.Y-c.Y)
	rr := math.Min(r, math.Min(lin, lout)/2)
	cross := (c.X-a.X)*(b.Y-c.Y) - (c.Y-a.Y)*(b.X-c.X)
	if rr < 0.5 || math.Abs(cross) < 1e-6*lin*lout { // too short, or straight on
		return c, c, false
	}
	in = layout.Point{X: c.X - (c.X-a.X)/lin*rr, Y: c.Y - (c.Y-a.Y)/lin*rr}
	out = layout.Point{X: c.X + (b.X-c.X)/lout*rr, Y: c.Y + (b.Y-c.Y)/lout*rr}
	return in, out, true
}

// smoothPath rounds the corners of a polyline with quadratic curves of
// radius up to r (less where segments are short), ending at end instead of
// the last point. The first op is the start (a move).
func smoothPath(pts []layout.Point, end layout.Point, r float64, dst []pathOp) []pathOp {
	dst = append(dst[:0], pathOp{p: pts[0]})
	for i := 1; i+1 < len(pts); i++ {
		in, out, ok := corner(pts, i, r)
		if !ok {
			dst = append(dst, pathOp{p: pts[i]})
			continue
		}
		dst = append(dst, pathOp{p: in}, pathOp{quad: true, ctrl: pts[i], p: out})
	}
	return append(dst, pathOp{p: end})
}

// quadAt is the point at t on the quadratic curve from a via control c to b.
func quadAt(a, c, b layout.Point, t float64) layout.Point {
	u := 1 - t
	return layout.Point{X: u*u*a.X + 2*u*t*c.X + t*t*b.X, Y: u*u*a.Y + 2*u*t*c.Y + t*t*b.Y}
}
