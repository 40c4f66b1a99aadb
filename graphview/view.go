package graphview

import (
	"math"

	"fyne.io/fyne/v2"

	"tensorscope/graphview/layout"
)

const (
	maxZoom    = 4
	fitMargin  = 16 // widget units kept free round a fitted graph
	centerZoom = 1  // zoom CenterOn moves to when text would be unreadable
	readable   = 0.55
)

// Zoom is the current scale: widget units per scene unit.
func (g *GraphView) Zoom() float32 { return g.zoom }

// Offset is where the scene's origin appears, in widget coordinates.
func (g *GraphView) Offset() fyne.Position { return g.offset }

// SetView sets zoom and offset directly (e.g. to restore a saved view).
func (g *GraphView) SetView(zoom float32, offset fyne.Position) {
	g.zoom = g.clampZoom(zoom)
	g.offset = offset
	g.home = false
	g.viewChanged()
}

// ToScene converts a widget position to scene coordinates.
func (g *GraphView) ToScene(p fyne.Position) layout.Point {
	return layout.Point{X: float64((p.X - g.offset.X) / g.zoom), Y: float64((p.Y - g.offset.Y) / g.zoom)}
}

// ToWidget converts scene coordinates to a widget position.
func (g *GraphView) ToWidget(p layout.Point) fyne.Position {
	return fyne.NewPos(float32(p.X)*g.zoom+g.offset.X, float32(p.Y)*g.zoom+g.offset.Y)
}

// fitZoom is the zoom at which the whole scene fits size (never above 1:1).
func (g *GraphView) fitZoom(size fyne.Size) float32 {
	if g.scene == nil {
		return 1
	}
	w, h := g.scene.Size()
	aw, ah := float64(size.Width-2*fitMargin), float64(size.Height-2*fitMargin)
	if w <= 0 || h <= 0 || aw <= 0 || ah <= 0 {
		return 1
	}
	return float32(math.Min(1, math.Min(aw/w, ah/h)))
}

// minZoom lets the user zoom out to half the fitting zoom, no further.
func (g *GraphView) minZoom() float32 {
	return max(g.fitZoom(g.Size())/2, 1e-4)
}

func (g *GraphView) clampZoom(z float32) float32 {
	if !(z > 0) {
		return g.zoom
	}
	return min(max(z, g.minZoom()), maxZoom)
}

func (g *GraphView) fit(size fyne.Size) {
	g.zoom = g.fitZoom(size)
	if g.scene == nil {
		g.offset = fyne.Position{}
		return
	}
	w, h := g.scene.Size()
	g.offset = fyne.NewPos(
		(size.Width-float32(w)*g.zoom)/2,
		(size.Height-float32(h)*g.zoom)/2)
	if float32(h)*g.zoom > size.Height-2*fitMargin+1 { // tall graph: start at the top
		g.offset.Y = fitMargin
	}
}

// Fit zooms and centres so the whole graph is visible (never enlarging
// beyond 1:1).
func (g *GraphView) Fit() {
	g.home = false
	g.fit(g.Size())
	g.viewChanged()
}

// Home shows the graph as it first appears: all of it when that is
// readable, otherwise its start (the top, or the left edge left to right)
// as wide (tall) as fits, at a readable zoom at least. Until the user pans
// or zooms, the home view follows the widget's size.
func (g *GraphView) Home() {
	g.home = true
	g.goHome(g.Size())
	g.viewChanged()
}

func (g *GraphView) goHome(size fyne.Size) {
	if g.scene == nil || size.Width <= 0 || size.Height <= 0 {
		g.zoom, g.offset = 1, fyne.Position{}
		return
	}
	g.zoom, g.offset = HomeView(g.scene, size)
}

// HomeView is the zoom and offset (where the scene's origin appears) of
// the view a scene opens at in a view of size: all of it, centred, when it
// fits at openingZoom or closer; otherwise as wide as fits (as tall, left
// to right) but never below openingZoom, starting at the inputs: the top
// edge (left edge) at the margin and, across, the first node centred
// unless the whole breadth fits, in the breadth the minimap leaves.
func HomeView(s *Scene, size fyne.Size) (zoom float32, offset fyne.Position) {
	w, h := s.Size()
	aw, ah := size.Width-2*fitMargin, size.Height-2*fitMargin
	if w <= 0 || h <= 0 || aw <= 0 || ah <= 0 {
		return 1, fyne.Position{}
	}
	fit := min(1, aw/float32(w), ah/float32(h))
	if fit >= openingZoom {
		return fit, fyne.NewPos((size.Width-float32(w)*fit)/2, (size.Height-float32(h)*fit)/2)
	}
	first, reserve := s.firstNode(), minimapReserve(s, size)
	if s.layout.Direction == LeftToRight {
		zoom = max(openingZoom, min(1, ah/float32(h)))
		return zoom, fyne.NewPos(fitMargin, acrossOffset(float32(h), float32(first.Y), zoom, size.Height-reserve))
	}
	zoom = max(openingZoom, min(1, aw/float32(w)))
	return zoom, fyne.NewPos(acrossOffset(float32(w), float32(first.X), zoom, size.Width-reserve), fitMargin)
}

// openingZoom is the smallest zoom a graph opens at: every line of a box
// stays readable (detail text about 8 units tall).
const openingZoom = 0.8

// acrossOffset places a graph extent long across the flow in a view
// length long at zoom: centred when it fits, else with first (the first
// node's centre) in the middle, the graph's edges kept from leaving a gap.
func acrossOffset(extent, first, zoom, length float32) float32 {
	if extent*zoom <= length-2*fitMargin {
		return (length - extent*zoom) / 2
	}
	o := length/2 - first*zoom
	return max(min(o, fitMargin), length-fitMargin-extent*zoom)
}

// firstNode is the centre of the graph input nearest the start of the
// flow (the top, or the left edge left to right), or of the node nearest
// it in a graph without input nodes. Not just the first node: operators
// that read only constants start the flow too (swin_t has hundreds).
func (s *Scene) firstNode() layout.Point {
	lr := s.layout.Direction == LeftToRight
	start := func(v int) float64 {
		if lr {
			return s.layout.Boxes[v].Min.X
		}
		return s.layout.Boxes[v].Min.Y
	}
	isInput := func(v int) bool { return s.graph.Nodes[v].Category == CategoryInput }
	best := -1
	for v := range s.layout.Boxes {
		switch {
		case best < 0, isInput(v) && !isInput(best):
			best = v
		case isInput(v) == isInput(best) && start(v) < start(best):
			best = v
		}
	}
	if best < 0 {
		return layout.Point{}
	}
	return s.layout.Nodes[best]
}

// ActualSize sets zoom 1:1, keeping the centre of the view in place.
func (g *GraphView) ActualSize() { g.ZoomAt(1, g.centre()) }

// ZoomIn and ZoomOut change the zoom by a step around the view's centre.
func (g *GraphView) ZoomIn()  { g.ZoomAt(g.zoom*zoomStep, g.centre()) }
func (g *GraphView) ZoomOut() { g.ZoomAt(g.zoom/zoomStep, g.centre()) }

const zoomStep = 1.25

// ZoomAt sets the zoom, keeping the scene point under anchor (a widget
// position) where it is.
func (g *GraphView) ZoomAt(z float32, anchor fyne.Position) {
	z = g.clampZoom(z)
	p := g.ToScene(anchor)
	g.zoom = z
	g.offset = fyne.NewPos(anchor.X-float32(p.X)*z, anchor.Y-float32(p.Y)*z)
	g.home = false
	g.viewChanged()
}

// Pan moves the view by d widget units.
func (g *GraphView) Pan(d fyne.Delta) {
	g.offset = g.offset.Add(d)
	g.home = false
	g.viewChanged()
}

// CenterOn moves node v to the centre of the view, zooming in to 1:1 first
// if its text would be too small to read; the centre of the part the
// minimap leaves free, so that it never covers the node.
func (g *GraphView) CenterOn(v int) {
	if g.scene == nil || v < 0 || v >= len(g.scene.graph.Nodes) {
		return
	}
	if g.zoom < readable {
		g.zoom = g.clampZoom(centerZoom)
	}
	c := g.scene.layout.Nodes[v]
	ctr := g.freeCentre(g.zoom)
	g.offset = fyne.NewPos(ctr.X-float32(c.X)*g.zoom, ctr.Y-float32(c.Y)*g.zoom)
	g.home = false
	g.viewChanged()
}

func (g *GraphView) centre() fyne.Position {
	s := g.Size()
	return fyne.NewPos(s.Width/2, s.Height/2)
}

func (g *GraphView) viewChanged() {
	g.Refresh()
	if g.OnViewChanged != nil {
		g.OnViewChanged()
	}
}

// NodeCentre is where node v's centre appears in the widget; ok is false
// when there is no such node.
func (g *GraphView) NodeCentre(v int) (p fyne.Position, ok bool) {
	if g.scene == nil || v < 0 || v >= len(g.scene.layout.Nodes) {
		return fyne.Position{}, false
	}
	return g.ToWidget(g.scene.layout.Nodes[v]), true
}

// PlaceNode shows node v's centre at widget position p at zoom, so that a
// node keeps its place on the screen when the graph is laid out anew.
func (g *GraphView) PlaceNode(v int, zoom float32, p fyne.Position) {
	if g.scene == nil || v < 0 || v >= len(g.scene.layout.Nodes) {
		return
	}
	g.zoom = g.clampZoom(zoom)
	c := g.scene.layout.Nodes[v]
	g.offset = fyne.NewPos(p.X-float32(c.X)*g.zoom, p.Y-float32(c.Y)*g.zoom)
	g.home = false
	g.viewChanged()
}
