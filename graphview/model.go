package graphview

import "tensorscope/graphview/layout"

// Graph is what the view draws: one box per node, one arrow per edge. It is
// format-neutral; the viewmodel converts each document's graph into it.
type Graph struct {
	Nodes []Node
	Edges []Edge
	// Frames are labelled rectangles drawn round sets of nodes: the
	// expanded groups of a hierarchy, outermost first.
	Frames []Frame
}

// Frame is drawn round the boxes of Nodes with Title above them and a −
// that collapses it (GraphView.OnFrameCollapse). Depth is its nesting
// level, 0 outermost: a deeper frame is drawn inside the ones round it.
type Frame struct {
	Title string
	Nodes []int
	Depth int
}

// Node is a box. Its size follows from its text.
type Node struct {
	Title    string   // operator type, shown in the coloured header
	Subtitle string   // node name ("conv1"); may be empty
	Details  []string // a few key attributes and folded weights ("3×3 /2", "W 8×1×3×3")
	Category Category // header colour
	// Collapsed marks the box of a collapsed group: drawn with a + that
	// expands it (GraphView.OnNodeExpand), as does a double tap.
	Collapsed bool
}

// Edge is an arrow From one node To another (indices into Graph.Nodes).
type Edge struct {
	From, To int
	Label    string // e.g. the tensor shape "1×64×56×56"; may be empty
}

// Direction is the way edges flow; see layout.Direction.
type Direction = layout.Direction

// Directions.
const (
	TopToBottom = layout.TopToBottom
	LeftToRight = layout.LeftToRight
)
