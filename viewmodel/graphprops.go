package viewmodel

import (
	"fmt"
	"strings"

	"tensorscope/formats"
	"tensorscope/viewmodel/textfmt"
)

// PropSection is a titled group of rows in the graph's side panel.
type PropSection struct {
	Title string
	Rows  []PropRow
	// Folded is how many rows show until the user asks for the rest
	// ("… N more"); 0 shows them all.
	Folded int
}

// Long attribute lists fold to their first foldedAttrRows rows, so that
// the inputs and outputs below stay within reach.
const (
	foldAttrsOver  = 8
	foldedAttrRows = 5
)

// PropRow is a label and a value; a row naming a tensor with data can open
// it in the inspector (Tensor ≥ 0), a row naming another node can jump to
// it (Node ≥ 0, a view node), a row naming one of the node's subgraphs can
// open it (Subgraph ≥ 0, an index into the node's Subgraphs).
type PropRow struct {
	Label, Value string
	Tensor       int
	Node         int
	Subgraph     int
}

func row(label, value string) PropRow {
	return PropRow{Label: label, Value: value, Tensor: -1, Node: -1, Subgraph: -1}
}

// NodeProperties describes view node v: op and name, its inputs and
// outputs with dtype and shape (first, so that they are in reach), what
// the codec says it means, and every decoded attribute (a long list
// folded).
func (m *GraphModel) NodeProperties(v int) []PropSection {
	id := m.DocNode(v)
	if id < 0 {
		return nil
	}
	n := &m.g.Nodes[id]
	kind := map[formats.NodeKind]string{formats.KindOp: "operator", formats.KindConst: "constant", formats.KindInput: "graph input"}[n.Kind]
	out := []PropSection{{Title: "Node", Rows: []PropRow{
		row("Op", n.Op), row("Name", n.Name), row("Index", fmt.Sprint(n.ID)), row("Kind", kind),
	}}}
	if len(n.Inputs) > 0 {
		s := PropSection{Title: "Inputs"}
		for i, vi := range n.Inputs {
			s.Rows = append(s.Rows, m.valueRow(fmt.Sprintf("#%d", i), vi, true))
		}
		out = append(out, s)
	}
	if len(n.Outputs) > 0 {
		s := PropSection{Title: "Outputs"}
		for i, vi := range n.Outputs {
			s.Rows = append(s.Rows, m.valueRow(fmt.Sprintf("#%d", i), vi, false))
		}
		out = append(out, s)
	}
	if s := meaningSection(&n.Meaning); len(s.Rows) > 0 {
		out = append(out, s)
	}
	if len(n.Attrs) > 0 {
		s := PropSection{Title: "Attributes"}
		for _, a := range n.Attrs {
			s.Rows = append(s.Rows, row(a.Name, textfmt.Value(a.Value)))
		}
		if len(s.Rows) > foldAttrsOver {
			s.Folded = foldedAttrRows
		}
		out = append(out, s)
	}
	if len(n.Subgraphs) > 0 {
		s := PropSection{Title: "Subgraphs"}
		for i, sg := range n.Subgraphs {
			r := row(sg.Name, subgraphSummary(sg.Graph))
			r.Subgraph = i
			s.Rows = append(s.Rows, r)
		}
		out = append(out, s)
	}
	if len(n.Reserved) > 0 {
		s := PropSection{Title: "Reserved parameters"}
		for _, a := range n.Reserved {
			s.Rows = append(s.Rows, row(a.Name, textfmt.Value(a.Value)))
		}
		if len(s.Rows) > foldAttrsOver {
			s.Folded = foldedAttrRows
		}
		out = append(out, s)
	}
	return out
}

// valueRow describes value vi as seen from a node: its name, dtype and
// shape, and the node at the other end (producer for inputs, first consumer
// for outputs).
func (m *GraphModel) valueRow(label string, vi int, input bool) PropRow {
	if vi < 0 || vi >= len(m.g.Values) {
		return row(label, fmt.Sprintf("invalid value %d", vi))
	}
	val := m.g.Values[vi]
	r := row(label, m.valueText(vi))
	if val.Tensor >= 0 && val.Tensor < len(m.doc.Tensors) && m.doc.Tensors[val.Tensor].HasData() {
		r.Tensor = val.Tensor
	}
	if input {
		if p := m.producer(vi); p >= 0 {
			r.Node = m.ViewNode(p)
			if r.Node < 0 {
				r.Value += " (folded weight)"
			} else {
				r.Value += " ← " + m.nodeName(p)
			}
		}
	} else if cs := m.consumers(vi); len(cs) > 0 {
		r.Node = m.ViewNode(cs[0])
		names := make([]string, 0, len(cs))
		for _, c := range cs {
			names = append(names, m.nodeName(c))
		}
		r.Value += " → " + strings.Join(names, ", ")
	}
	return r
}

func (m *GraphModel) valueText(vi int) string {
	val := m.g.Values[vi]
	s := val.Name
	if s == "" {
		s = fmt.Sprintf("value %d", vi)
	}
	dt, shape := val.DType, val.Shape
	if val.Tensor >= 0 && val.Tensor < len(m.doc.Tensors) {
		t := m.doc.Tensors[val.Tensor]
		if !dt.Valid() {
			dt = t.DType
		}
		if shape == nil {
			shape = t.Shape
		}
	}
	if dt.Valid() {
		s += "  " + dt.String()
	}
	return s + " " + shapeText(shape, val.DimNames)
}

// shapeText spells a value's shape for the panel: "[1, 64, 56, 56]", a
// symbolic dim by its name, a dim of unknown size and an unknown shape as
// "?", a scalar as "scalar" (not "[]", which reads as unknown).
func shapeText(shape []int, names []string) string {
	switch {
	case shape == nil:
		return "?"
	case len(shape) == 0:
		return "scalar"
	}
	return "[" + strings.ReplaceAll(joinNamedDims(shape, names), "×", ", ") + "]"
}

func (m *GraphModel) nodeName(id int) string {
	n := &m.g.Nodes[id]
	if n.Name != "" {
		return n.Name
	}
	return fmt.Sprintf("%s #%d", n.Op, id)
}

func (m *GraphModel) consumers(vi int) []int {
	var out []int
	for i := range m.g.Nodes {
		for _, in := range m.g.Nodes[i].Inputs {
			if in == vi {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// EdgeProperties describes the tensor carried by view edge e.
func (m *GraphModel) EdgeProperties(e int) []PropSection {
	vi := m.EdgeValue(e)
	if vi < 0 {
		return nil
	}
	val := m.g.Values[vi]
	s := PropSection{Title: "Tensor"}
	r := row("Name", val.Name)
	if val.Tensor >= 0 && val.Tensor < len(m.doc.Tensors) && m.doc.Tensors[val.Tensor].HasData() {
		r.Tensor = val.Tensor
	}
	s.Rows = append(s.Rows, r, row("Type", m.valueText(vi)))
	if p := m.producer(vi); p >= 0 {
		pr := row("From", m.nodeName(p))
		pr.Node = m.ViewNode(p)
		s.Rows = append(s.Rows, pr)
	}
	for _, c := range m.consumers(vi) {
		cr := row("To", m.nodeName(c))
		cr.Node = m.ViewNode(c)
		s.Rows = append(s.Rows, cr)
	}
	return []PropSection{s}
}
