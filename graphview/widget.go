package graphview

import (
	"context"
	"errors"
	"image/color"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// GraphView is a Fyne widget that draws a Scene: pan by dragging, zoom with
// the wheel (around the pointer) or the keys + − 0 (1:1) F/Home (fit), M
// (fold or open the minimap), arrows to pan; tap a node or an edge. It builds canvas objects only for
// what is in view, and when zoomed out below 0.3 (too small for text) or
// with more than 1500 nodes in view it draws one raster image instead, so
// a frame costs about the same on 10k nodes as on 100.
//
// Like every Fyne widget, call its methods on the UI goroutine; from other
// goroutines wrap the call in fyne.Do (Load does this for you).
type GraphView struct {
	widget.BaseWidget

	// OnNodeTapped is called with the node's index when the user taps a
	// node; the node is selected first.
	OnNodeTapped func(node int)
	// OnEdgeTapped is called with the edge's index when the user taps an
	// edge; the edge is selected first.
	OnEdgeTapped func(edge int)
	// OnBackgroundTapped is called when a tap hits neither; the selection
	// is cleared first.
	OnBackgroundTapped func()
	// OnNodeExpand is called with a collapsed group's node (Node.Collapsed)
	// when the user taps its + or double-taps it; the node is selected
	// first. Nil leaves such taps ordinary.
	OnNodeExpand func(node int)
	// OnFrameCollapse is called with a frame's index (Graph.Frames) when
	// the user taps its title, which carries a −.
	OnFrameCollapse func(frame int)
	// OnMinimapToggled is called when the user folds the minimap to its
	// button (true) or opens it again (false), so that the choice can be
	// remembered.
	OnMinimapToggled func(collapsed bool)
	// OnViewChanged is called after the zoom or position changes.
	OnViewChanged func()
	// OnOtherKey receives the keys the view does not use while it has the
	// focus, so that the window's keys (F5, Escape) still work.
	OnOtherKey func(*fyne.KeyEvent)

	scene  *Scene
	zoom   float32
	offset fyne.Position // where the scene's origin appears in the widget
	// home: the view has not been touched since the scene was set, so it
	// follows the widget's size (see Home).
	home bool

	selected, selectedEdge int
	hovered, hoveredEdge   int
	lastTap                int // node of the last tap, for double taps
	lastTapAt              time.Time
	lineage                int // node whose lineage is highlighted, -1 none
	lineNodes, lineEdges   []bool

	// minimap is the renderer's overview panel (nil until rendered);
	// minimapDrag: the current drag began on it, so it moves the view
	// there instead of panning.
	minimap     *minimap
	minimapDrag bool
	// minimapFolded: the user folded the minimap to its button.
	minimapFolded bool

	// nodeColours, when set, replace the category colours of the nodes
	// (see SetNodeColours).
	nodeColours []color.Color

	// Load calls so far; only the latest one's scene is shown. Atomic
	// because Fyne's test driver runs fyne.Do functions on the calling
	// goroutine rather than the UI one.
	loads atomic.Uint64
}

// NewGraphView returns a view of s (which may be nil: an empty view until
// SetScene).
func NewGraphView(s *Scene) *GraphView {
	g := &GraphView{zoom: 1, selected: -1, selectedEdge: -1, hovered: -1, hoveredEdge: -1, lineage: -1, home: true}
	g.ExtendBaseWidget(g)
	g.scene = s
	return g
}

// SetNodeColours colours node v with c[v] instead of its category's
// colour (nil entries, and nodes past the end, keep theirs); nil restores
// the categories. The header text takes black or white, whichever reads
// better on the colour.
func (g *GraphView) SetNodeColours(c []color.Color) {
	g.nodeColours = c
	g.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (g *GraphView) CreateRenderer() fyne.WidgetRenderer { return newRenderer(g) }

// Scene is the scene shown, or nil.
func (g *GraphView) Scene() *Scene { return g.scene }

// SetScene shows s, clears the selection and highlight, and goes to the
// home view (see Home).
func (g *GraphView) SetScene(s *Scene) {
	g.scene = s
	g.selected, g.selectedEdge, g.hovered, g.hoveredEdge = -1, -1, -1, -1
	g.lineage, g.lineNodes, g.lineEdges = -1, nil, nil
	g.Home()
}

// Load builds a scene for graph and shows it: text is measured here, on
// the UI goroutine (Fyne's metrics are not safe elsewhere; it takes a few
// milliseconds), and the layout is done in the background by start (tens of
// milliseconds for a large graph, seconds for a huge one). start runs the
// layout function it is given on a goroutine of the caller's choosing, with
// a context that the caller cancels when the graph's tab goes away; the
// viewmodel's document tasks do this. The scene is then shown on the UI
// goroutine and done, if not nil, is called there with the scene or the
// error. A Load overtaken by a later one is dropped: its scene is not
// shown and its done is not called; so is a cancelled one.
func (g *GraphView) Load(graph *Graph, opt SceneOptions, start LayoutStarter, done func(*Scene, error)) {
	id := g.loads.Add(1)
	if opt.Measure == nil {
		opt.Measure = FyneMeasure(graph)
	}
	start(func(ctx context.Context) (*Scene, error) {
		return NewSceneContext(ctx, graph, opt)
	}, func(s *Scene, err error) {
		if id != g.loads.Load() || errors.Is(err, context.Canceled) {
			return
		}
		if err == nil {
			g.SetScene(s)
		}
		if done != nil {
			done(s, err)
		}
	})
}

// LayoutStarter runs layout in the background and then calls done with its
// result on the UI goroutine (not at all when it was cancelled).
type LayoutStarter func(layout func(ctx context.Context) (*Scene, error), done func(*Scene, error))

// GoLayout is a LayoutStarter for views that belong to no document: a new
// goroutine, results through fyne.Do, stopped when ctx is cancelled.
func GoLayout(ctx context.Context) LayoutStarter {
	return func(layout func(ctx context.Context) (*Scene, error), done func(*Scene, error)) {
		go func() {
			s, err := layout(ctx)
			fyne.Do(func() { done(s, err) })
		}()
	}
}

// Selected is the selected node, or -1.
func (g *GraphView) Selected() int { return g.selected }

// Select selects node v (-1 clears the selection) without moving the
// view. A node and an edge are never selected together.
func (g *GraphView) Select(v int) {
	if g.scene == nil || v < 0 || v >= len(g.scene.graph.Nodes) {
		v = -1
	}
	if v != g.selected || (v >= 0 && g.selectedEdge >= 0) {
		g.selected = v
		if v >= 0 {
			g.selectedEdge = -1
		}
		g.Refresh()
	}
}

// SelectedEdge is the selected edge, or -1.
func (g *GraphView) SelectedEdge() int { return g.selectedEdge }

// SelectEdge selects edge e (-1 clears it), drawn in the accent colour;
// it clears the node selection.
func (g *GraphView) SelectEdge(e int) {
	if g.scene == nil || e < 0 || e >= len(g.scene.graph.Edges) {
		e = -1
	}
	if e != g.selectedEdge || (e >= 0 && g.selected >= 0) {
		g.selectedEdge = e
		if e >= 0 {
			g.selected = -1
		}
		g.Refresh()
	}
}

// HighlightLineage dims everything except node v, its ancestors and its
// descendants and the edges between them. v < 0 clears the highlight.
func (g *GraphView) HighlightLineage(v int) {
	if g.scene == nil || v < 0 || v >= len(g.scene.graph.Nodes) {
		g.ClearHighlight()
		return
	}
	g.lineage = v
	g.lineNodes, g.lineEdges = g.scene.Lineage(v)
	g.Refresh()
}

// Highlighted is the node whose lineage is highlighted, or -1.
func (g *GraphView) Highlighted() int { return g.lineage }

// ClearHighlight undoes HighlightLineage.
func (g *GraphView) ClearHighlight() {
	if g.lineage < 0 {
		return
	}
	g.lineage, g.lineNodes, g.lineEdges = -1, nil, nil
	g.Refresh()
}

// Reset clears selection and highlight and returns to the home view.
func (g *GraphView) Reset() {
	g.selected, g.selectedEdge = -1, -1
	g.lineage, g.lineNodes, g.lineEdges = -1, nil, nil
	g.Home()
}
