package viewmodel

import (
	"fmt"

	"tensorscope/formats"
	"tensorscope/viewmodel/textfmt"
)

// GraphNav is the way into and back out of nested graphs (the branches of
// an If, the body of a Loop or Scan): a stack of the graphs opened, the
// document's own graph at the bottom.
type GraphNav struct {
	doc    *formats.Document
	frames []graphFrame
}

type graphFrame struct {
	graph *formats.Graph
	title string // "Loop body_loop ▸ body"
	node  int    // the node of the enclosing graph that holds it; -1 for the main graph
}

// NewGraphNav starts at d's main graph (d must have a Graph).
func NewGraphNav(d *formats.Document) *GraphNav {
	return &GraphNav{doc: d, frames: []graphFrame{{graph: d.Graph, title: "main graph", node: -1}}}
}

// Current is the graph shown now.
func (n *GraphNav) Current() *formats.Graph { return n.frames[len(n.frames)-1].graph }

// Depth is how many graphs deep the current graph is nested (0: main).
func (n *GraphNav) Depth() int { return len(n.frames) - 1 }

// Enter opens subgraph sub of node id of the current graph.
func (n *GraphNav) Enter(id, sub int) error {
	g := n.Current()
	if id < 0 || id >= len(g.Nodes) {
		return fmt.Errorf("no node %d in this graph", id)
	}
	node := &g.Nodes[id]
	if sub < 0 || sub >= len(node.Subgraphs) || node.Subgraphs[sub].Graph == nil {
		return fmt.Errorf("node %q has no subgraph %d", node.Name, sub)
	}
	name := node.Name
	if name == "" {
		name = fmt.Sprintf("#%d", id)
	}
	title := fmt.Sprintf("%s %s ▸ %s", node.Op, name, node.Subgraphs[sub].Name)
	n.frames = append(n.frames, graphFrame{graph: node.Subgraphs[sub].Graph, title: title, node: id})
	return nil
}

// Back returns to the enclosing graph and reports the node there that
// holds the graph left (-1 when already at the main graph).
func (n *GraphNav) Back() int {
	if len(n.frames) == 1 {
		return -1
	}
	left := n.frames[len(n.frames)-1]
	n.frames = n.frames[:len(n.frames)-1]
	return left.node
}

// Path names the graphs from the main one to the current one.
func (n *GraphNav) Path() []string {
	out := make([]string, len(n.frames))
	for i, f := range n.frames {
		out[i] = f.title
	}
	return out
}

// subgraphSummary is "12 nodes, 1 input, 5 outputs" for a subgraph's
// properties row.
func subgraphSummary(g *formats.Graph) string {
	if g == nil {
		return "not read"
	}
	ops := 0
	for i := range g.Nodes {
		if g.Nodes[i].Kind != formats.KindInput {
			ops++
		}
	}
	outputs := len(g.Outputs) // the producers, where the codec lists no values
	if g.OutputValues != nil {
		outputs = len(g.OutputValues)
	}
	return textfmt.CountNoun(ops, "node") + ", " + textfmt.CountNoun(len(g.Inputs), "input") + ", " + textfmt.CountNoun(outputs, "output")
}
