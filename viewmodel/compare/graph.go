package compare

import (
	"fmt"
	"reflect"

	"tensorscope/formats"
	"tensorscope/viewmodel/textfmt"
)

// NodeChange says how a node differs between two graphs.
type NodeChange uint8

const (
	NodeSame    NodeChange = iota
	NodeAdded              // only in B
	NodeRemoved            // only in A
	NodeChanged            // in both, with another op or other attributes
)

func (c NodeChange) String() string {
	return [...]string{"same", "added", "removed", "changed"}[c]
}

// AttrChange is one attribute of a changed node: its value in A and in B,
// nil on the side that lacks it.
type AttrChange struct {
	Name string
	A, B any
}

// ChangedNode is a node present in both graphs whose op or attributes
// differ. IDA and IDB are its ids in each graph.
type ChangedNode struct {
	Name       string
	IDA, IDB   int
	OpA, OpB   string
	Attributes []AttrChange // only those that differ, in A's order then B's
}

// GraphDiff compares two graphs node by node, nodes matched by name.
// Removed lists A's node ids found only in A, Added B's ids found only in
// B, both in file order.
type GraphDiff struct {
	Removed []int
	Added   []int
	Changed []ChangedNode
	// ChangeA and ChangeB give each node id of A and of B its change, for
	// marking the graph view.
	ChangeA, ChangeB []NodeChange
	// Partner maps a node id of A to its id in B (-1 for none); PartnerB
	// the reverse.
	PartnerA, PartnerB []int
}

// Same reports whether the graphs have the same nodes, ops and attributes.
func (d *GraphDiff) Same() bool {
	return len(d.Removed) == 0 && len(d.Added) == 0 && len(d.Changed) == 0
}

// nodeKeys are the names nodes are matched by, after renames (a tensor's
// rename applies to the node of the same name too: a weight and its Const
// node share the name in most formats). Unnamed nodes are matched by their
// position among the unnamed nodes, the best a nameless file allows.
func nodeKeys(g *formats.Graph, renames Renames) []string {
	keys := make([]string, len(g.Nodes))
	unnamed := 0
	for i, n := range g.Nodes {
		if n.Name != "" {
			name := n.Name
			if to, ok := renames[name]; ok {
				name = to
			}
			keys[i] = "n:" + name
			continue
		}
		keys[i] = fmt.Sprintf("#%d", unnamed)
		unnamed++
	}
	return keys
}

// DiffGraphs compares a and b (both non-nil), A's node names renamed
// through renames (may be nil). Repeated names pair up in order.
func DiffGraphs(a, b *formats.Graph, renames Renames) *GraphDiff {
	d := &GraphDiff{ChangeA: make([]NodeChange, len(a.Nodes)), ChangeB: make([]NodeChange, len(b.Nodes)),
		PartnerA: make([]int, len(a.Nodes)), PartnerB: make([]int, len(b.Nodes))}
	for i := range d.PartnerB {
		d.PartnerB[i] = -1
	}
	byKey := map[string][]int{}
	for j, k := range nodeKeys(b, nil) {
		byKey[k] = append(byKey[k], j)
	}
	for i, k := range nodeKeys(a, renames) {
		cands := byKey[k]
		if len(cands) == 0 {
			d.PartnerA[i] = -1
			d.ChangeA[i] = NodeRemoved
			d.Removed = append(d.Removed, i)
			continue
		}
		j := cands[0]
		byKey[k] = cands[1:]
		d.PartnerA[i], d.PartnerB[j] = j, i
		na, nb := &a.Nodes[i], &b.Nodes[j]
		attrs := diffAttrs(na.Attrs, nb.Attrs)
		if na.Op != nb.Op || len(attrs) > 0 {
			d.ChangeA[i], d.ChangeB[j] = NodeChanged, NodeChanged
			d.Changed = append(d.Changed, ChangedNode{Name: na.Name, IDA: i, IDB: j, OpA: na.Op, OpB: nb.Op, Attributes: attrs})
		}
	}
	for j, p := range d.PartnerB {
		if p < 0 {
			d.ChangeB[j] = NodeAdded
			d.Added = append(d.Added, j)
		}
	}
	return d
}

// diffAttrs lists the attributes whose values differ or that one side
// lacks. Values compare deeply (slices element by element).
func diffAttrs(a, b []formats.Attr) []AttrChange {
	inB := map[string]any{}
	for _, x := range b {
		inB[x.Name] = x.Value
	}
	seen := map[string]bool{}
	var out []AttrChange
	for _, x := range a {
		seen[x.Name] = true
		vb, ok := inB[x.Name]
		if !ok {
			out = append(out, AttrChange{Name: x.Name, A: x.Value})
			continue
		}
		if !reflect.DeepEqual(x.Value, vb) {
			out = append(out, AttrChange{Name: x.Name, A: x.Value, B: vb})
		}
	}
	for _, x := range b {
		if !seen[x.Name] {
			out = append(out, AttrChange{Name: x.Name, B: x.Value})
		}
	}
	return out
}

// GraphChangeRow is one line of the graph changes table: a removed or
// added node, a changed node's op, or one attribute of a changed node
// with its value in A and in B.
type GraphChangeRow struct {
	Change         NodeChange
	Node           string
	OpA, OpB       string
	Attr           string
	ValueA, ValueB string
}

// Cells are the row's columns: change, node, op in A, op in B, attribute,
// value in A, value in B.
func (r GraphChangeRow) Cells() []string {
	return []string{r.Change.String(), r.Node, r.OpA, r.OpB, r.Attr, r.ValueA, r.ValueB}
}

// GraphChangeRows lists the graph changes as table rows: removed nodes,
// added nodes, then each changed node (one row per differing attribute).
func (c *Comparison) GraphChangeRows() []GraphChangeRow {
	g := c.graph
	if g == nil {
		return nil
	}
	ga, gb := c.docA.Graph, c.docB.Graph
	var rows []GraphChangeRow
	for _, id := range g.Removed {
		n := ga.Nodes[id]
		rows = append(rows, GraphChangeRow{Change: NodeRemoved, Node: nodeName(n.Name, id), OpA: n.Op})
	}
	for _, id := range g.Added {
		n := gb.Nodes[id]
		rows = append(rows, GraphChangeRow{Change: NodeAdded, Node: nodeName(n.Name, id), OpB: n.Op})
	}
	for _, ch := range g.Changed {
		base := GraphChangeRow{Change: NodeChanged, Node: nodeName(ch.Name, ch.IDA), OpA: ch.OpA, OpB: ch.OpB}
		if len(ch.Attributes) == 0 {
			rows = append(rows, base)
		}
		for _, a := range ch.Attributes {
			r := base
			r.Attr, r.ValueA, r.ValueB = a.Name, valueOrNone(a.A), valueOrNone(a.B)
			rows = append(rows, r)
		}
	}
	return rows
}

func nodeName(name string, id int) string {
	if name == "" {
		return fmt.Sprintf("node #%d", id)
	}
	return name
}

func valueOrNone(v any) string {
	if v == nil {
		return "(none)"
	}
	return textfmt.Value(v)
}
