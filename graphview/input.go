package graphview

import (
	"math"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

var (
	_ fyne.Tappable     = (*GraphView)(nil)
	_ fyne.Draggable    = (*GraphView)(nil)
	_ fyne.Scrollable   = (*GraphView)(nil)
	_ fyne.Focusable    = (*GraphView)(nil)
	_ desktop.Hoverable = (*GraphView)(nil)
)

// pickTolerance is how near (in widget units) a tap must be to an edge.
const pickTolerance = 5

// pick finds what lies under widget position p: a node, else an edge.
func (g *GraphView) pick(p fyne.Position) (node, edge int) {
	if g.scene == nil || g.onMinimap(p) {
		return -1, -1
	}
	q := g.ToScene(p)
	if v := g.scene.NodeAt(q); v >= 0 {
		return v, -1
	}
	return -1, g.scene.EdgeAt(q, pickTolerance/float64(g.zoom))
}

// Tapped selects the node or edge under the pointer (or clears the
// selection) and reports it.
func (g *GraphView) Tapped(ev *fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(g); c != nil {
		c.Focus(g)
	}
	if g.minimap != nil && g.minimap.onToggle(ev.Position) {
		g.toggleMinimap()
		return
	}
	if g.onMinimap(ev.Position) {
		if g.minimap.shown {
			g.showMinimapPoint(ev.Position)
		}
		return
	}
	if f := g.scene.frameTitleAt(g, ev.Position); f >= 0 {
		if g.OnFrameCollapse != nil {
			g.OnFrameCollapse(f)
		}
		return
	}
	node, edge := g.pick(ev.Position)
	// A second tap on a collapsed group soon after the first, or a tap on
	// its +, expands it. (Not fyne.DoubleTappable: that would hold back
	// every single tap until the double-tap time has passed.)
	double := node >= 0 && node == g.lastTap && time.Since(g.lastTapAt) < doubleTapTime
	g.lastTap, g.lastTapAt = node, time.Now()
	if node >= 0 && g.scene.graph.Nodes[node].Collapsed && (double || g.scene.OnExpandMark(node, g.ToScene(ev.Position))) {
		g.lastTap = -1
		if g.OnNodeExpand != nil {
			g.Select(node)
			g.OnNodeExpand(node)
			return
		}
	}
	switch {
	case node >= 0:
		g.Select(node)
		if g.OnNodeTapped != nil {
			g.OnNodeTapped(node)
		}
	case edge >= 0:
		g.SelectEdge(edge)
		if g.OnEdgeTapped != nil {
			g.OnEdgeTapped(edge)
		}
	default:
		g.Select(-1)
		g.SelectEdge(-1)
		if g.OnBackgroundTapped != nil {
			g.OnBackgroundTapped()
		}
	}
}

// Dragged pans; a drag that begins on the minimap moves the view to the
// point under the pointer there instead.
func (g *GraphView) Dragged(ev *fyne.DragEvent) {
	start := ev.Position.Subtract(ev.Dragged)
	if g.minimapDrag || (g.onMinimap(start) && g.minimap.shown) {
		g.minimapDrag = true
		g.showMinimapPoint(ev.Position)
		return
	}
	g.Pan(ev.Dragged)
}

// DragEnd implements fyne.Draggable.
func (g *GraphView) DragEnd() { g.minimapDrag = false }

// Scrolled zooms around the pointer: one wheel notch (25 units on Linux
// and Windows, 10 on macOS) is about ×1.2. Horizontal scrolling pans.
func (g *GraphView) Scrolled(ev *fyne.ScrollEvent) {
	if ev.Scrolled.DX != 0 && ev.Scrolled.DY == 0 {
		g.Pan(fyne.NewDelta(ev.Scrolled.DX, 0))
		return
	}
	f := float32(math.Exp(float64(ev.Scrolled.DY) * 0.0073))
	g.ZoomAt(g.zoom*f, ev.Position)
}

// MouseIn implements desktop.Hoverable.
func (g *GraphView) MouseIn(ev *desktop.MouseEvent) { g.MouseMoved(ev) }

// MouseMoved highlights the node or edge under the pointer.
func (g *GraphView) MouseMoved(ev *desktop.MouseEvent) {
	node, edge := g.pick(ev.Position)
	if node != g.hovered || edge != g.hoveredEdge {
		g.hovered, g.hoveredEdge = node, edge
		g.Refresh()
	}
}

// MouseOut implements desktop.Hoverable.
func (g *GraphView) MouseOut() {
	if g.hovered >= 0 || g.hoveredEdge >= 0 {
		g.hovered, g.hoveredEdge = -1, -1
		g.Refresh()
	}
}

// FocusGained implements fyne.Focusable.
func (g *GraphView) FocusGained() {}

// FocusLost implements fyne.Focusable.
func (g *GraphView) FocusLost() {}

// TypedRune handles + = (zoom in), - − (zoom out), 0 (1:1), f F (fit).
func (g *GraphView) TypedRune(r rune) {
	switch r {
	case '+', '=':
		g.ZoomIn()
	case '-', '−', '_':
		g.ZoomOut()
	case '0':
		g.ActualSize()
	case 'f', 'F':
		g.Fit()
	case 'm', 'M':
		g.toggleMinimap()
	}
}

// panStep is how far an arrow key pans, as a fraction of the view.
const panStep = 0.15

// TypedKey handles Home (fit) and the arrow keys (pan).
func (g *GraphView) TypedKey(ev *fyne.KeyEvent) {
	s := g.Size()
	dx, dy := s.Width*panStep, s.Height*panStep
	switch ev.Name {
	case fyne.KeyHome:
		g.Fit()
	case fyne.KeyLeft:
		g.Pan(fyne.NewDelta(dx, 0))
	case fyne.KeyRight:
		g.Pan(fyne.NewDelta(-dx, 0))
	case fyne.KeyUp:
		g.Pan(fyne.NewDelta(0, dy))
	case fyne.KeyDown:
		g.Pan(fyne.NewDelta(0, -dy))
	case fyne.KeyPageUp:
		g.Pan(fyne.NewDelta(0, s.Height*0.9))
	case fyne.KeyPageDown:
		g.Pan(fyne.NewDelta(0, -s.Height*0.9))
	default:
		if g.OnOtherKey != nil {
			g.OnOtherKey(ev)
		}
	}
}

// doubleTapTime is how soon a second tap must follow to count as a double
// tap.
var doubleTapTime = 400 * time.Millisecond // a variable for tests on busy machines
