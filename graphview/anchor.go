package graphview

import "fyne.io/fyne/v2"

// NodeOnScreen is where node v's centre appears in the widget; false when
// there is no such node.
func (g *GraphView) NodeOnScreen(v int) (fyne.Position, bool) {
	if g.scene == nil || v < 0 || v >= len(g.scene.layout.Nodes) {
		return fyne.Position{}, false
	}
	return g.ToWidget(g.scene.layout.Nodes[v]), true
}

// PutNodeAt moves the view, keeping its zoom, so that node v's centre
// appears at p: a new layout of the same graph (constants shown, another
// direction) then keeps the node the user was looking at where it was.
func (g *GraphView) PutNodeAt(v int, p fyne.Position) {
	at, ok := g.NodeOnScreen(v)
	if !ok {
		return
	}
	g.Pan(fyne.NewDelta(p.X-at.X, p.Y-at.Y))
}

// AtHome reports that the user has not moved the view since the scene was
// shown, so it still follows the widget's size (see Home).
func (g *GraphView) AtHome() bool { return g.home }
