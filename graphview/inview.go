package graphview

// NodeInView reports whether node v's centre is inside the widget, so the
// user can see it.
func (g *GraphView) NodeInView(v int) bool {
	if g.scene == nil || v < 0 || v >= len(g.scene.layout.Nodes) {
		return false
	}
	p, s := g.ToWidget(g.scene.layout.Nodes[v]), g.Size()
	return p.X >= 0 && p.Y >= 0 && p.X <= s.Width && p.Y <= s.Height
}
