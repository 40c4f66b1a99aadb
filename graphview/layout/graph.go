package layout

import "fmt"

// Graph is the input: boxes and the directed edges between them. Node i of
// the result corresponds to Nodes[i], edge j to Edges[j].
type Graph struct {
	Nodes []Node
	Edges []Edge
}

// Node is a box to place. Sizes are in drawing units (the widget uses Fyne
// units at zoom 1) and are given as drawn, whatever the direction.
type Node struct {
	Width, Height float64
}

// Edge runs From one node To another (indices into Graph.Nodes). A label
// (e.g. a tensor shape) of the given size is placed beside the edge, in the
// gap below its source; zero size means no label. Self-loops and parallel
// edges are allowed.
type Edge struct {
	From, To                int
	LabelWidth, LabelHeight float64
}

// Direction is the way edges flow.
type Direction uint8

const (
	TopToBottom Direction = iota
	LeftToRight
)

func (d Direction) String() string {
	if d == LeftToRight {
		return "left-to-right"
	}
	return "top-to-bottom"
}

// Options tune the layout. The zero value means the defaults.
type Options struct {
	Direction Direction
	// NodeSep is the gap between neighbouring boxes in a layer (default 24).
	NodeSep float64
	// EdgeSep is the gap between edges passing through a layer (default 12).
	EdgeSep float64
	// RankSep is the minimum gap between layers (default 36); it grows to
	// fit edge labels.
	RankSep float64
	// ComponentSep is the gap between disconnected components (default 48).
	ComponentSep float64
}

func (o Options) withDefaults() Options {
	if o.NodeSep <= 0 {
		o.NodeSep = 24
	}
	if o.EdgeSep <= 0 {
		o.EdgeSep = 12
	}
	if o.RankSep <= 0 {
		o.RankSep = 36
	}
	if o.ComponentSep <= 0 {
		o.ComponentSep = 48
	}
	return o
}

func (g *Graph) validate() error {
	for i, n := range g.Nodes {
		if !(n.Width >= 0 && n.Height >= 0) || n.Width > maxSize || n.Height > maxSize {
			return fmt.Errorf("layout: node %d has size %gx%g", i, n.Width, n.Height)
		}
	}
	for i, e := range g.Edges {
		if e.From < 0 || e.From >= len(g.Nodes) || e.To < 0 || e.To >= len(g.Nodes) {
			return fmt.Errorf("layout: edge %d joins %d and %d, outside 0..%d", i, e.From, e.To, len(g.Nodes)-1)
		}
		if !(e.LabelWidth >= 0 && e.LabelHeight >= 0) || e.LabelWidth > maxSize || e.LabelHeight > maxSize {
			return fmt.Errorf("layout: edge %d has label size %gx%g", i, e.LabelWidth, e.LabelHeight)
		}
	}
	return nil
}

// maxSize bounds box and label sizes so coordinates stay exact in float64
// however many boxes are placed side by side.
const maxSize = 1e6
