package graphview

import (
	"context"
	"fmt"

	"tensorscope/graphview/layout"
)

// Scene is a laid-out graph ready to draw: text measured and shortened to
// fit, positions computed, and a spatial index for viewport queries and
// picking. It never changes after NewScene, so it may be built on any
// goroutine and shared by several views and exports.
type Scene struct {
	graph   *Graph
	layout  *layout.Result
	nodes   []sceneNode
	labels  []string // per edge, possibly shortened; "" when not drawn
	labelW  []float64
	labelAt []layout.Point // top-left of each drawn label
	frames  []sceneFrame
	index   *grid

	// Node adjacency over the edges, for lineage highlighting.
	inOff, in   []int32 // edges into node v: in[inOff[v]:inOff[v+1]]
	outOff, out []int32
}

// sceneNode is the text of a node as drawn.
type sceneNode struct {
	title    string
	subtitle string
	details  []string
}

// SceneOptions tune NewScene. The zero value lays out top to bottom and
// measures text with FyneMeasure (which estimates when no app runs).
type SceneOptions struct {
	Direction Direction
	// Measure sizes text. nil means FyneMeasure(g), which must then run on
	// the UI goroutine: to build a scene elsewhere, call FyneMeasure there
	// first and pass its result (as GraphView.Load does), or use
	// EstimateMeasure.
	Measure MeasureFunc
}

// NewScene measures, lays out and indexes g. g must not change afterwards.
// It fails only when an edge names a node that does not exist.
func NewScene(g *Graph, opt SceneOptions) (*Scene, error) {
	return NewSceneContext(context.Background(), g, opt)
}

// NewSceneContext is NewScene that stops when ctx is cancelled and returns
// its error: laying out a graph of tens of thousands of nodes takes a while.
func NewSceneContext(ctx context.Context, g *Graph, opt SceneOptions) (*Scene, error) {
	if g == nil {
		g = &Graph{}
	}
	measure := opt.Measure
	if measure == nil {
		measure = FyneMeasure(g)
	}
	for i, e := range g.Edges {
		if e.From < 0 || e.From >= len(g.Nodes) || e.To < 0 || e.To >= len(g.Nodes) {
			return nil, fmt.Errorf("graphview: edge %d joins nodes %d and %d of %d", i, e.From, e.To, len(g.Nodes))
		}
	}
	s := &Scene{graph: g, nodes: make([]sceneNode, len(g.Nodes)),
		labels: make([]string, len(g.Edges)), labelW: make([]float64, len(g.Edges))}
	in := &layout.Graph{Nodes: make([]layout.Node, len(g.Nodes)), Edges: make([]layout.Edge, len(g.Edges))}
	for i := range g.Nodes {
		var w, h float64
		s.nodes[i], w, h = prepareNode(&g.Nodes[i], measure)
		in.Nodes[i] = layout.Node{Width: w, Height: h}
	}
	for i, e := range g.Edges {
		in.Edges[i] = layout.Edge{From: e.From, To: e.To}
		if e.Label != "" {
			s.labels[i] = fitText(measure, e.Label, labelSize, false, maxNodeWidth)
			s.labelW[i] = float64(measure(s.labels[i], labelSize, false) + 2*labelPadX)
			in.Edges[i].LabelWidth = s.labelW[i]
			in.Edges[i].LabelHeight = labelSize*lineHeight + 2*labelPadY
		}
	}
	var res *layout.Result
	var frames []layout.Rect
	var err error
	if len(g.Frames) > 0 {
		res, frames, err = layoutNested(ctx, g, in, layout.Options{Direction: opt.Direction})
	} else {
		res, err = layout.LayoutContext(ctx, in, layout.Options{Direction: opt.Direction})
	}
	if err != nil {
		return nil, err
	}
	s.layout = res
	s.placeFrames(measure, frames)
	s.buildAdjacency()
	s.index = newGrid(s)
	s.placeLabels()
	return s, nil
}

// NodeSize is the box a node is drawn in at zoom 1: wide enough for its
// text (within limits; longer lines are shortened with "…"), tall enough
// for a header and one row per body line.
func NodeSize(n *Node, measure MeasureFunc) (w, h float64) {
	_, w, h = prepareNode(n, measure)
	return w, h
}

// prepareNode shortens a node's text to fit the widest box allowed and
// sizes the box to the result.
func prepareNode(n *Node, measure MeasureFunc) (sn sceneNode, w, h float64) {
	textMax := float32(maxNodeWidth - 2*padX)
	sn.title = fitText(measure, n.Title, titleSize, true, textMax)
	sn.subtitle = fitText(measure, n.Subtitle, subtitleSize, false, textMax)
	details := n.Details
	if len(details) > maxDetailRows {
		details = append(details[:maxDetailRows-1:maxDetailRows-1], fmt.Sprintf("+%d more", len(n.Details)-maxDetailRows+1))
	}
	sn.details = make([]string, len(details))
	tw := measure(sn.title, titleSize, true)
	if n.Collapsed { // room for the + beside the title
		tw += markSize + padX/2
	}
	if sn.subtitle != "" {
		tw = max(tw, measure(sn.subtitle, subtitleSize, false))
	}
	for j, d := range details {
		sn.details[j] = fitText(measure, d, detailSize, false, textMax)
		tw = max(tw, measure(sn.details[j], detailSize, false))
	}
	return sn, float64(min(max(tw+2*padX, minNodeWidth), maxNodeWidth)), float64(nodeHeight(&sn))
}

// nodeHeight is the header plus one row per body line.
func nodeHeight(sn *sceneNode) float32 {
	h := headerHeight()
	rows := float32(len(sn.details)) * detailSize * lineHeight
	if sn.subtitle != "" {
		rows += subtitleSize * lineHeight
	}
	if rows > 0 {
		h += rows + 2*padY
	}
	return h
}

func (s *Scene) buildAdjacency() {
	n := len(s.graph.Nodes)
	s.inOff = make([]int32, n+1)
	s.outOff = make([]int32, n+1)
	for _, e := range s.graph.Edges {
		s.inOff[e.To+1]++
		s.outOff[e.From+1]++
	}
	for v := 0; v < n; v++ {
		s.inOff[v+1] += s.inOff[v]
		s.outOff[v+1] += s.outOff[v]
	}
	s.in = make([]int32, len(s.graph.Edges))
	s.out = make([]int32, len(s.graph.Edges))
	fi := append([]int32(nil), s.inOff[:n]...)
	fo := append([]int32(nil), s.outOff[:n]...)
	for i, e := range s.graph.Edges {
		s.in[fi[e.To]] = int32(i)
		fi[e.To]++
		s.out[fo[e.From]] = int32(i)
		fo[e.From]++
	}
}

// Graph is the input the scene was built from.
func (s *Scene) Graph() *Graph { return s.graph }

// Layout is the placement: node centres and boxes, edge routes, statistics.
func (s *Scene) Layout() *layout.Result { return s.layout }

// Size is the extent of the drawing at zoom 1.
func (s *Scene) Size() (w, h float64) { return s.layout.Width, s.layout.Height }

// NodeBox is the box of node v at zoom 1.
func (s *Scene) NodeBox(v int) layout.Rect { return s.layout.Boxes[v] }

// NodeAt is the node whose box contains p, or -1.
func (s *Scene) NodeAt(p layout.Point) int { return s.index.nodeAt(s, p) }

// EdgeAt is the edge passing nearest p within tol (zoom-1 units), or -1.
func (s *Scene) EdgeAt(p layout.Point, tol float64) int { return s.index.edgeAt(s, p, tol) }

// Lineage marks the ancestors and descendants of node v (v included) and
// the edges along which they connect to v: an edge is marked when both its
// ends are ancestors or both are descendants.
func (s *Scene) Lineage(v int) (nodes, edges []bool) {
	n := len(s.graph.Nodes)
	nodes = make([]bool, n)
	edges = make([]bool, len(s.graph.Edges))
	if v < 0 || v >= n {
		return nodes, edges
	}
	walk := func(off, adj []int32, forward bool) []bool {
		seen := make([]bool, n)
		seen[v] = true
		queue := []int32{int32(v)}
		for len(queue) > 0 {
			u := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, e := range adj[off[u]:off[u+1]] {
				edges[e] = true
				w := s.graph.Edges[e].From
				if forward {
					w = s.graph.Edges[e].To
				}
				if !seen[w] {
					seen[w] = true
					queue = append(queue, int32(w))
				}
			}
		}
		return seen
	}
	up := walk(s.inOff, s.in, false)
	down := walk(s.outOff, s.out, true)
	for i := range nodes {
		nodes[i] = up[i] || down[i]
	}
	return nodes, edges
}
