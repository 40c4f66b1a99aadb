package compare

import (
	"fmt"
	"reflect"
	"strings"

	"tensorscope/formats"
	"tensorscope/graphview"
	"tensorscope/viewmodel/textfmt"
)

// ChangeGraph is the two models' graphs drawn as one: B's nodes and the
// nodes only A has, constants left out, each node coloured by its change —
// removed in the activation red, added in the pooling green, changed in the
// control-flow ochre, the rest grey — and its title marked −, + or ~ so the
// meaning does not rest on colour alone.
type ChangeGraph struct {
	View *graphview.Graph
	// Nodes say which document nodes each drawn node stands for: its id in
	// A and in B (−1 on the side that lacks it).
	Nodes []ChangeNode
}

// ChangeNode is one node of a ChangeGraph.
type ChangeNode struct {
	Change   NodeChange
	IDA, IDB int
}

// changeCategories colour the kinds of change with the graph palette's
// category colours.
var changeCategories = [...]graphview.Category{
	NodeSame:    graphview.CategoryOther,
	NodeAdded:   graphview.CategoryPooling,
	NodeRemoved: graphview.CategoryActivation,
	NodeChanged: graphview.CategoryControlFlow,
}

var changeMarks = [...]string{NodeSame: "", NodeAdded: "+ ", NodeRemoved: "− ", NodeChanged: "~ "}

// ChangeGraph builds the combined graph, or nil when the files are not
// both models.
func (c *Comparison) ChangeGraph() *ChangeGraph {
	g := c.graph
	if g == nil {
		return nil
	}
	ga, gb := c.docA.Graph, c.docB.Graph
	cg := &ChangeGraph{View: &graphview.Graph{}}
	fromB := make([]int, len(gb.Nodes)) // B node id → drawn node, −1 for constants
	fromA := make([]int, len(ga.Nodes)) // A node id → drawn node (removed nodes, and partners through B)
	for i := range fromA {
		fromA[i] = -1
	}
	for id, n := range gb.Nodes {
		fromB[id] = -1
		if n.Kind == formats.KindConst {
			continue
		}
		fromB[id] = cg.add(n, g.ChangeB[id], g.PartnerB[id], id, ga)
	}
	for id, n := range ga.Nodes {
		if p := g.PartnerA[id]; p >= 0 {
			fromA[id] = fromB[p]
			continue
		}
		if n.Kind != formats.KindConst {
			fromA[id] = cg.add(n, NodeRemoved, id, -1, ga)
		}
	}
	seen := map[[2]int]bool{}
	cg.addEdges(gb, fromB, seen)
	cg.addEdges(ga, fromA, seen)
	return cg
}

// add draws node n (of B, or of A when removed) and returns its index.
func (cg *ChangeGraph) add(n formats.Node, ch NodeChange, idA, idB int, ga *formats.Graph) int {
	title := changeMarks[ch] + n.Op
	var details []string
	if ch == NodeChanged {
		a := ga.Nodes[idA]
		if a.Op != n.Op {
			details = append(details, "op was "+a.Op)
		}
		for _, d := range diffAttrs(a.Attrs, n.Attrs) {
			if len(details) == 3 {
				details = append(details, "…")
				break
			}
			details = append(details, fmt.Sprintf("%s %s → %s", d.Name, shortValue(d.A), shortValue(d.B)))
		}
	}
	cg.View.Nodes = append(cg.View.Nodes, graphview.Node{Title: title, Subtitle: n.Name, Details: details,
		Category: changeCategories[ch]})
	cg.Nodes = append(cg.Nodes, ChangeNode{Change: ch, IDA: idA, IDB: idB})
	return len(cg.View.Nodes) - 1
}

func shortValue(v any) string {
	s := valueOrNone(v)
	if len(s) > 24 {
		s = s[:21] + "…"
	}
	return s
}

// addEdges draws g's edges between drawn nodes (a producer to each
// consumer of its outputs), once each.
func (cg *ChangeGraph) addEdges(g *formats.Graph, drawn []int, seen map[[2]int]bool) {
	for _, n := range g.Nodes {
		to := drawn[n.ID]
		for _, v := range n.Inputs {
			if v < 0 || v >= len(g.Values) {
				continue
			}
			p := g.Values[v].Producer
			if p < 0 || p >= len(drawn) || drawn[p] < 0 || to < 0 || drawn[p] == to {
				continue
			}
			key := [2]int{drawn[p], to}
			if !seen[key] {
				seen[key] = true
				cg.View.Edges = append(cg.View.Edges, graphview.Edge{From: drawn[p], To: to})
			}
		}
	}
}

// NodeVersions describes drawn node i for the properties panel: its name
// and change, and for a node in both files every attribute in A and in B,
// those that differ marked ≠.
func (c *Comparison) NodeVersions(cg *ChangeGraph, i int) string {
	if cg == nil || i < 0 || i >= len(cg.Nodes) {
		return ""
	}
	cn := cg.Nodes[i]
	var na, nb *formats.Node
	if cn.IDA >= 0 {
		na = &c.docA.Graph.Nodes[cn.IDA]
	}
	if cn.IDB >= 0 {
		nb = &c.docB.Graph.Nodes[cn.IDB]
	}
	var b strings.Builder
	name := nodeName(firstNode(na, nb).Name, firstNode(na, nb).ID)
	fmt.Fprintf(&b, "%s — %s\n", name, cn.Change)
	switch {
	case na == nil:
		fmt.Fprintf(&b, "only in B: %s\n", nb.Op)
		writeAttrs(&b, nb.Attrs)
	case nb == nil:
		fmt.Fprintf(&b, "only in A: %s\n", na.Op)
		writeAttrs(&b, na.Attrs)
	default:
		fmt.Fprintf(&b, "op: %s in A, %s in B\n", na.Op, nb.Op)
		writeBothVersions(&b, na.Attrs, nb.Attrs)
	}
	return strings.TrimRight(b.String(), "\n")
}

func firstNode(a, b *formats.Node) *formats.Node {
	if a != nil {
		return a
	}
	return b
}

func writeAttrs(b *strings.Builder, attrs []formats.Attr) {
	for _, a := range attrs {
		fmt.Fprintf(b, "  %s = %s\n", a.Name, textfmt.Value(a.Value))
	}
}

// writeBothVersions lists every attribute of either version: A's value,
// B's value, ≠ where they differ.
func writeBothVersions(b *strings.Builder, a, bAttrs []formats.Attr) {
	inB := map[string]any{}
	for _, x := range bAttrs {
		inB[x.Name] = x.Value
	}
	seen := map[string]bool{}
	line := func(name string, va, vb any, hasA, hasB bool) {
		mark := "  "
		if hasA != hasB || !reflect.DeepEqual(va, vb) {
			mark = "≠ "
		}
		fmt.Fprintf(b, "%s%s: A %s, B %s\n", mark, name, presentValue(va, hasA), presentValue(vb, hasB))
	}
	for _, x := range a {
		seen[x.Name] = true
		vb, ok := inB[x.Name]
		line(x.Name, x.Value, vb, true, ok)
	}
	for _, x := range bAttrs {
		if !seen[x.Name] {
			line(x.Name, nil, x.Value, false, true)
		}
	}
}

func presentValue(v any, present bool) string {
	if !present {
		return "(none)"
	}
	return textfmt.Value(v)
}
