package layout

// Point is a position in drawing units; Y grows downwards.
type Point struct{ X, Y float64 }

// Rect is an axis-aligned box.
type Rect struct{ Min, Max Point }

// Contains reports whether p lies inside r (edges included).
func (r Rect) Contains(p Point) bool {
	return p.X >= r.Min.X && p.X <= r.Max.X && p.Y >= r.Min.Y && p.Y <= r.Max.Y
}

// Overlaps reports whether r and s share interior points.
func (r Rect) Overlaps(s Rect) bool {
	return r.Min.X < s.Max.X && s.Min.X < r.Max.X && r.Min.Y < s.Max.Y && s.Min.Y < r.Max.Y
}

// Result is a placed graph. All coordinates are non-negative and within
// Width × Height.
type Result struct {
	// Nodes[i] is the centre of input node i.
	Nodes []Point
	// Boxes[i] is the box of input node i (its centre and size).
	Boxes []Rect
	// Layer[i] is the layer of node i within its component (0 = first).
	Layer []int
	// Edges[j] is the route of input edge j.
	Edges         []Route
	Width, Height float64
	Direction     Direction
	Stats         Stats
}

// Route is an edge drawn as a polyline. Points run from the source box's
// border to the target box's border, so the arrowhead belongs at the last
// point whatever way the layout had to turn the edge.
type Route struct {
	Points []Point
	// Label is the top-left corner of the label box (meaningful when the
	// edge has a label size).
	Label Point
	// Reversed: the edge closes a cycle and runs against the flow.
	Reversed bool
	// SelfLoop: From == To; the route is a loop beside the box.
	SelfLoop bool
	// Detour: the edge was too long to get its own lane through every layer
	// (see Stats.Detours) and runs around the drawing instead.
	Detour bool
}

// Stats describe what the layout did, for tests, benchmarks and the status bar.
type Stats struct {
	Components int
	Layers     int // most layers in a component
	Reversed   int // edges reversed to break cycles
	SelfLoops  int
	Dummies    int // dummy vertices created for long edges
	Detours    int // long edges routed around the drawing (dummy budget exhausted)
	Crossings  int // edge crossings between adjacent layers after ordering
	// BaselineCrossings is what the plain barycenter sweep, which the
	// ordering starts with, left: Crossings ≤ BaselineCrossings always.
	BaselineCrossings int
}
