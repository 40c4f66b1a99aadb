package layout

import "math"

func (p Point) add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }

// add grows r to contain p.
func (r Rect) add(p Point) Rect {
	r.Min.X, r.Min.Y = math.Min(r.Min.X, p.X), math.Min(r.Min.Y, p.Y)
	r.Max.X, r.Max.Y = math.Max(r.Max.X, p.X), math.Max(r.Max.Y, p.Y)
	return r
}

// exitX is where, along the top or bottom side of a box with centre c and
// half sizes hw, hh, a line from the centre towards p crosses that side,
// kept off the corners so arrowheads stay on the box.
func exitX(c Point, hw, hh float64, p Point) float64 {
	dx, dy := p.X-c.X, p.Y-c.Y
	x := c.X
	if dy != 0 {
		x += dx * math.Abs(hh/dy)
	} else if dx != 0 {
		x += math.Copysign(hw, dx)
	}
	inset := math.Min(6, hw/2)
	return math.Max(c.X-hw+inset, math.Min(c.X+hw-inset, x))
}

// xAt is where the polyline first reaches height y (its first point's x if
// it never does).
func xAt(route []Point, y float64) float64 {
	for i := 1; i < len(route); i++ {
		a, b := route[i-1], route[i]
		if (a.Y <= y && y <= b.Y) || (b.Y <= y && y <= a.Y) {
			if a.Y == b.Y {
				return math.Max(a.X, b.X)
			}
			return a.X + (b.X-a.X)*(y-a.Y)/(b.Y-a.Y)
		}
	}
	if len(route) == 0 {
		return 0
	}
	return route[0].X
}

// MeetsSegment reports whether the segment from a to b passes through r
// (Liang–Barsky clipping).
func (r Rect) MeetsSegment(a, b Point) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := b.X-a.X, b.Y-a.Y
	for _, c := range [4][2]float64{{-dx, a.X - r.Min.X}, {dx, r.Max.X - a.X}, {-dy, a.Y - r.Min.Y}, {dy, r.Max.Y - a.Y}} {
		p, q := c[0], c[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}
