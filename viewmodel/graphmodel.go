package viewmodel

import (
	"fmt"
	"strings"

	"tensorscope/formats"
	"tensorscope/graphview"
	"tensorscope/tensor"
)

// GraphModel turns a document's graph into what the graph view draws:
// Const/weight producers folded into their consumers (unless ShowConsts),
// boxes with key attributes, edges labelled with tensor shapes, and the
// mapping back to document nodes and values for picking and find.
type GraphModel struct {
	doc        *formats.Document
	g          *formats.Graph
	showConsts bool

	view      *graphview.Graph
	nodeOf    []int   // view node → document node id
	viewOf    []int   // document node id → view node, -1 when folded
	edgeValue []int   // view edge → value index
	folded    [][]int // document node id → values folded into it as weights
}

// NewGraphModel builds the view graph for d (which must have a Graph).
func NewGraphModel(d *formats.Document, showConsts bool) *GraphModel {
	m := &GraphModel{doc: d, g: d.Graph, showConsts: showConsts}
	m.build()
	return m
}

// ShowConsts reports whether constant producers are drawn as nodes.
func (m *GraphModel) ShowConsts() bool { return m.showConsts }

// View is the graph to draw.
func (m *GraphModel) View() *graphview.Graph { return m.view }

// NodeCount is the number of nodes in the document's graph.
func (m *GraphModel) NodeCount() int { return len(m.g.Nodes) }

// DocNode maps a view node to the document node id.
func (m *GraphModel) DocNode(v int) int {
	if v < 0 || v >= len(m.nodeOf) {
		return -1
	}
	return m.nodeOf[v]
}

// ViewNode maps a document node id to its view node, or -1 when folded.
func (m *GraphModel) ViewNode(id int) int {
	if id < 0 || id >= len(m.viewOf) {
		return -1
	}
	return m.viewOf[id]
}

// EdgeValue maps a view edge to the value (tensor) it carries.
func (m *GraphModel) EdgeValue(e int) int {
	if e < 0 || e >= len(m.edgeValue) {
		return -1
	}
	return m.edgeValue[e]
}

func (m *GraphModel) foldable(n *formats.Node) bool {
	return !m.showConsts && n.Kind == formats.KindConst
}

func (m *GraphModel) build() {
	g := m.g
	m.viewOf = make([]int, len(g.Nodes))
	m.folded = make([][]int, len(g.Nodes))
	m.nodeOf = m.nodeOf[:0]
	view := &graphview.Graph{}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if m.foldable(n) {
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
	for _, id := range m.nodeOf {
		n := &g.Nodes[id]
		title := n.Op
		switch n.Kind {
		case formats.KindInput:
			title = "Input"
		case formats.KindConst:
			title = "Const"
		}
		cat := graphview.CategoryOf(n.Op)
		if n.Kind == formats.KindInput {
			cat = graphview.CategoryOf("input")
		}
		view.Nodes = append(view.Nodes, graphview.Node{
			Title: title, Subtitle: n.Name, Details: m.details(id), Category: cat,
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
	m.view = view
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
	return joinDims(m.g.Values[v].Shape)
}

func joinDims(shape []int) string {
	if len(shape) == 0 {
		return ""
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = fmt.Sprint(d)
	}
	return strings.Join(parts, "×")
}

// details are the few lines under a node's name: its key attributes
// (kernel and stride, channels) and its folded weights with their shapes.
func (m *GraphModel) details(id int) []string {
	n := &m.g.Nodes[id]
	a := attrMap(n.Attrs)
	var out []string
	if k := kernelText(a); k != "" {
		out = append(out, k)
	}
	if c := channelText(a, m.foldedKernel(id)); c != "" {
		out = append(out, c)
	}
	if n.Kind == formats.KindInput && len(n.Outputs) > 0 {
		if s := m.shapeLabel(n.Outputs[0]); s != "" {
			out = append(out, s)
		}
	}
	hasW := false
	for _, v := range m.folded[id] {
		if shape, dt := m.valueShape(v); dt.IsFloat() && m.isWeight(v) && len(shape) >= 2 {
			hasW = true
		}
	}
	for _, v := range m.folded[id] {
		out = append(out, m.weightLine(v, hasW))
	}
	return out
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
		case len(shape) >= 2:
			name = "W"
		case len(shape) == 1 && hasW:
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

// foldedKernel is the shape of the node's first folded 4-D float weight
// ([out, in/groups, kh, kw]), or nil.
func (m *GraphModel) foldedKernel(id int) []int {
	for _, v := range m.folded[id] {
		if shape, dt := m.valueShape(v); len(shape) == 4 && dt.IsFloat() {
			return shape
		}
	}
	return nil
}

func attrMap(attrs []formats.Attr) map[string]any {
	m := make(map[string]any, len(attrs))
	for _, a := range attrs {
		m[a.Name] = a.Value
	}
	return m
}

func intAttr(a map[string]any, name string) (int64, bool) {
	switch v := a[name].(type) {
	case int64:
		return v, true
	case int:
		return int64(v), true
	case int32:
		return int64(v), true
	case uint32:
		return int64(v), true
	case formats.Enum:
		return v.Value, true
	}
	return 0, false
}

// spatialPair takes the last two entries of a 4-entry NCHW attribute
// (TenniS ksize/stride) or a 2-entry one.
func spatialPair(a map[string]any, name string) (int64, int64, bool) {
	var s []int64
	switch v := a[name].(type) {
	case []int64:
		s = v
	case []int:
		for _, x := range v {
			s = append(s, int64(x))
		}
	}
	if len(s) >= 2 {
		return s[len(s)-2], s[len(s)-1], true
	}
	return 0, 0, false
}

func kernelText(a map[string]any) string {
	var b strings.Builder
	if alg, ok := a["alg"].(formats.Enum); ok && alg.Name != "" {
		b.WriteString(alg.Name + " ")
	}
	kh, okh := intAttr(a, "kernel_h")
	kw, okw := intAttr(a, "kernel_w")
	if !(okh && okw) {
		kh, kw, okh = spatialPair(a, "ksize")
		okw = okh
	}
	if okh && okw {
		fmt.Fprintf(&b, "%d×%d", kh, kw)
	}
	sh, oks := intAttr(a, "stride_h")
	sw, _ := intAttr(a, "stride_w")
	if !oks {
		sh, sw, oks = spatialPair(a, "stride")
	}
	if oks && (sh != 1 || sw != 1) && (sh > 0 || sw > 0) {
		if sh == sw {
			fmt.Fprintf(&b, " /%d", sh)
		} else {
			fmt.Fprintf(&b, " /%d,%d", sh, sw)
		}
	}
	return strings.TrimSpace(b.String())
}

// channelText is "in → out ch" for convolutions ("784 → 128" for linear
// layers). Tengine writers often leave input_channel at 0 or 1, so the
// folded kernel's shape, when there is one, is trusted over the attribute.
func channelText(a map[string]any, kernel []int) string {
	if in, ok := intAttr(a, "in_features"); ok {
		out, _ := intAttr(a, "out_features")
		return fmt.Sprintf("%d → %d", in, out)
	}
	out, ok := intAttr(a, "output_channel")
	if !ok {
		if n, ok := intAttr(a, "num_output"); ok {
			return fmt.Sprintf("→ %d", n)
		}
		return ""
	}
	g, _ := intAttr(a, "group")
	in, inOK := intAttr(a, "input_channel")
	if kernel != nil {
		in, inOK = int64(kernel[1])*max(g, 1), true
	}
	s := fmt.Sprintf("→ %d ch", out)
	if inOK && in > 0 {
		s = fmt.Sprintf("%d → %d ch", in, out)
	}
	if g > 1 {
		s += fmt.Sprintf(", %d groups", g)
	}
	return s
}

// Find returns the view nodes whose name or op, or whose input or output
// tensor names, contain query (ignoring case), in view order. A folded
// weight matches its consumer.
func (m *GraphModel) Find(query string) []int {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return nil
	}
	var out []int
	for v, id := range m.nodeOf {
		n := &m.g.Nodes[id]
		if m.nodeMatches(n, q) {
			out = append(out, v)
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
