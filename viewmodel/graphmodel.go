package viewmodel

import (
	"fmt"
	"slices"
	"strings"

	"tensorscope/formats"
	"tensorscope/graphview"
	"tensorscope/tensor"
)

// GraphModel turns a document's graph into what the graph view draws:
// Const/weight producers folded into their consumers (unless the model was made with showConsts),
// boxes with key attributes, edges labelled with tensor shapes, and the
// mapping back to document nodes and values for picking and find.
type GraphModel struct {
	doc        *formats.Document
	g          *formats.Graph
	showConsts bool

	// The flat graph: every node not folded, one box each.
	flat      *graphview.Graph
	nodeOf    []int   // flat node → document node id
	viewOf    []int   // document node id → flat node, -1 when folded
	edgeValue []int   // flat edge → value index
	folded    [][]int // document node id → values folded into it as weights
	isOutput  []bool  // document node id → is a graph output

	// The hierarchy of scopes over the flat graph, which groups are
	// expanded, and the graph drawn with the collapsed ones as boxes.
	hier  *hierarchy
	depth int    // the level SetDepth collapsed at, DepthAll for none
	open  []bool // group → expanded
	vis   *visible
}

// NewGraphModel builds the view graph for d (which must have a Graph).
func NewGraphModel(d *formats.Document, showConsts bool) *GraphModel {
	return NewSubgraphModel(d, d.Graph, showConsts)
}

// NewSubgraphModel builds the view graph of g, d's graph or one nested in
// it (an If branch, a Loop body); g's values name d's tensors.
func NewSubgraphModel(d *formats.Document, g *formats.Graph, showConsts bool) *GraphModel {
	m := &GraphModel{doc: d, g: g, showConsts: showConsts}
	m.build()
	m.hier = newHierarchy(m)
	m.SetDepth(DepthAuto)
	return m
}

// Graph is the document graph this model draws.
func (m *GraphModel) Graph() *formats.Graph { return m.g }

// ShowConsts reports whether constant producers are drawn as nodes.
func (m *GraphModel) ShowConsts() bool { return m.showConsts }

// View is the graph to draw: the flat graph with every collapsed group
// drawn as one box.
func (m *GraphModel) View() *graphview.Graph { return m.visibleGraph().graph }

// FlatView is the graph with every group expanded.
func (m *GraphModel) FlatView() *graphview.Graph { return m.flat }

// NodeCount is the number of nodes in the document's graph.
func (m *GraphModel) NodeCount() int { return len(m.g.Nodes) }

// DocNode maps a view node to the document node id; -1 for a collapsed
// group's box (see ViewGroup).
func (m *GraphModel) DocNode(v int) int {
	vis := m.visibleGraph()
	if v < 0 || v >= len(vis.items) || vis.items[v].group >= 0 {
		return -1
	}
	return m.nodeOf[vis.items[v].flat]
}

// ViewNode maps a document node id to the view node that draws it: its
// own box, or the box of the collapsed group it is in; -1 when folded.
func (m *GraphModel) ViewNode(id int) int {
	if id < 0 || id >= len(m.viewOf) || m.viewOf[id] < 0 {
		return -1
	}
	return m.visibleGraph().rep[m.viewOf[id]]
}

// EdgeValue maps a view edge to the value (tensor) it carries; -1 for a
// merged edge carrying several (see EdgeValues).
func (m *GraphModel) EdgeValue(e int) int {
	vals := m.EdgeValues(e)
	if len(vals) != 1 {
		return -1
	}
	return vals[0]
}

// EdgeValues are the values (tensors) view edge e carries: one, or
// several for an edge merged between collapsed groups.
func (m *GraphModel) EdgeValues(e int) []int {
	vis := m.visibleGraph()
	if e < 0 || e >= len(vis.edgeValues) {
		return nil
	}
	return vis.edgeValues[e]
}

// foldable reports whether a node is drawn inside its consumers rather
// than as a box: constants are, unless the user shows them, and except
// those that are graph outputs, which would leave the output undrawn.
func (m *GraphModel) foldable(id int) bool {
	return !m.showConsts && m.g.Nodes[id].Kind == formats.KindConst && !m.isOutput[id]
}

func (m *GraphModel) build() {
	g := m.g
	m.isOutput = make([]bool, len(g.Nodes))
	for _, id := range g.Outputs {
		if id >= 0 && id < len(g.Nodes) {
			m.isOutput[id] = true
		}
	}
	m.viewOf = make([]int, len(g.Nodes))
	m.folded = make([][]int, len(g.Nodes))
	m.nodeOf = m.nodeOf[:0]
	view := &graphview.Graph{}
	for i := range g.Nodes {
		if m.foldable(i) {
			m.viewOf[i] = -1
			continue
		}
		m.viewOf[i] = len(m.nodeOf)
		m.nodeOf = append(m.nodeOf, i)
	}
	// A node's weights are the values it consumes that come from a folded
	// producer, or from no node at all but from the file (.nn parameters).
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if m.viewOf[i] < 0 {
			continue
		}
		for _, v := range n.Inputs {
			p := m.producer(v)
			if (p >= 0 && m.viewOf[p] < 0) || (p < 0 && m.storedTensor(v)) {
				m.folded[i] = append(m.folded[i], v)
			}
		}
	}
	inputs := 0
	for i := range g.Nodes {
		inputs += len(g.Nodes[i].Inputs)
	}
	view.Nodes = make([]graphview.Node, 0, len(m.nodeOf))
	view.Edges = make([]graphview.Edge, 0, inputs)
	m.edgeValue = make([]int, 0, inputs)
	for _, id := range m.nodeOf {
		n := &g.Nodes[id]
		title := n.Op
		switch n.Kind {
		case formats.KindInput:
			title = "Input"
		case formats.KindConst:
			title = "Const"
		}
		view.Nodes = append(view.Nodes, graphview.Node{
			Title: title, Subtitle: n.Name, Details: m.details(id), Category: nodeCategory(n),
		})
	}
	for i := range g.Nodes {
		to := m.viewOf[i]
		if to < 0 {
			continue
		}
		for _, v := range g.Nodes[i].Inputs {
			p := m.producer(v)
			if p < 0 || m.viewOf[p] < 0 {
				continue
			}
			view.Edges = append(view.Edges, graphview.Edge{From: m.viewOf[p], To: to, Label: m.shapeLabel(v)})
			m.edgeValue = append(m.edgeValue, v)
		}
	}
	m.flat = view
}

func (m *GraphModel) producer(v int) int {
	if v < 0 || v >= len(m.g.Values) {
		return -1
	}
	p := m.g.Values[v].Producer
	if p < 0 || p >= len(m.g.Nodes) {
		return -1
	}
	return p
}

// storedTensor reports whether value v names a document tensor.
func (m *GraphModel) storedTensor(v int) bool {
	return v >= 0 && v < len(m.g.Values) && m.g.Values[v].Tensor >= 0 && m.g.Values[v].Tensor < len(m.doc.Tensors)
}

func (m *GraphModel) shapeLabel(v int) string {
	if v < 0 || v >= len(m.g.Values) {
		return ""
	}
	val := &m.g.Values[v]
	return joinNamedDims(val.Shape, val.DimNames)
}

func joinDims(shape []int) string { return joinNamedDims(shape, nil) }

// joinNamedDims spells a shape "batch×3×224×224": a symbolic dim by its
// name, a dim of unknown size as "?".
func joinNamedDims(shape []int, names []string) string {
	if len(shape) == 0 {
		return ""
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		switch {
		case i < len(names) && names[i] != "":
			parts[i] = names[i]
		case d < 0:
			parts[i] = "?"
		default:
			parts[i] = fmt.Sprint(d)
		}
	}
	return strings.Join(parts, "×")
}

// details are the few lines under a node's name: the key facts of its
// meaning (kernel and stride, channels) and its folded weights with their
// shapes.
func (m *GraphModel) details(id int) []string {
	n := &m.g.Nodes[id]
	var out []string
	if k := kernelText(&n.Meaning); k != "" {
		out = append(out, k)
	}
	if c := channelText(&n.Meaning); c != "" {
		out = append(out, c)
	}
	if n.Kind == formats.KindInput && len(n.Outputs) > 0 {
		if s := m.shapeLabel(n.Outputs[0]); s != "" {
			out = append(out, s)
		}
	}
	hasW := false
	for _, v := range m.folded[id] {
		if shape, dt := m.valueShape(v); dt.IsFloat() && m.isWeight(v) && !vectorLike(shape) {
			hasW = true
		}
	}
	for _, v := range m.folded[id] {
		out = append(out, m.weightLine(v, hasW))
	}
	return out
}

// vectorLike reports whether a shape has at most one dim above 1: a
// vector, however many dims of 1 pad it (Tengine stores biases 1×1×1×N).
func vectorLike(shape []int) bool {
	long := 0
	for _, d := range shape {
		if d > 1 {
			long++
		}
	}
	return long <= 1
}

// weightLine spells a folded input: "W 8×1×3×3" for a float weight matrix
// or kernel and "b 8" for a vector beside one (files name them too
// inconsistently to go by name); the short name and shape otherwise
// ("gamma 16", "ksize 4").
func (m *GraphModel) weightLine(v int, hasW bool) string {
	val := m.g.Values[v]
	name := val.Name
	if i := strings.LastIndexAny(name, "./"); i >= 0 && i < len(name)-1 {
		name = name[i+1:]
	}
	shape, dt := m.valueShape(v)
	if dt.IsFloat() && m.isWeight(v) {
		switch {
		case len(shape) >= 2 && !vectorLike(shape):
			name = "W"
		case len(shape) >= 1 && hasW:
			name = "b"
		}
	}
	if s := joinDims(shape); s != "" {
		return name + " " + s
	}
	return name
}

// valueShape is the value's shape and dtype, from the value or its tensor.
func (m *GraphModel) valueShape(v int) ([]int, tensor.DType) {
	val := m.g.Values[v]
	shape, dt := val.Shape, val.DType
	if val.Tensor >= 0 && val.Tensor < len(m.doc.Tensors) {
		t := m.doc.Tensors[val.Tensor]
		if shape == nil {
			shape = t.Shape
		}
		if !dt.Valid() {
			dt = t.DType
		}
	}
	return shape, dt
}

func (m *GraphModel) isWeight(v int) bool {
	t := m.g.Values[v].Tensor
	return t >= 0 && t < len(m.doc.Tensors) && m.doc.Tensors[t].Role == formats.RoleWeight
}

// Find returns the view nodes whose name or op, or whose input or output
// tensor names, contain query (ignoring case), in view order. A folded
// weight matches its consumer; a node inside a collapsed group is found
// as the group's box, once (FindNodes finds the nodes themselves).
func (m *GraphModel) Find(query string) []int {
	vis := m.visibleGraph()
	var out []int
	seen := make([]bool, len(vis.items))
	for _, id := range m.FindNodes(query) {
		if v := vis.rep[m.viewOf[id]]; !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// FindNodes returns the document ids of the drawn nodes Find matches, in
// document order, whether or not a collapsed group hides them.
func (m *GraphModel) FindNodes(query string) []int {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return nil
	}
	var out []int
	for _, id := range m.nodeOf {
		if m.nodeMatches(&m.g.Nodes[id], q) {
			out = append(out, id)
		}
	}
	return out
}

func (m *GraphModel) nodeMatches(n *formats.Node, q string) bool {
	if strings.Contains(strings.ToLower(n.Name), q) || strings.Contains(strings.ToLower(n.Op), q) {
		return true
	}
	for _, list := range [][]int{n.Inputs, n.Outputs} {
		for _, v := range list {
			if v >= 0 && v < len(m.g.Values) && strings.Contains(strings.ToLower(m.g.Values[v].Name), q) {
				return true
			}
		}
	}
	return false
}
