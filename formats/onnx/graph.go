package onnx

import (
	"google.golang.org/protobuf/encoding/protowire"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// maxGraphDepth bounds nested subgraphs (If in Loop in Scan…). Real
// models nest a handful; a hostile file nesting 100,000 deep stops here
// with a warning instead of exhausting the stack.
const maxGraphDepth = 32

// GraphProto fields: node = 1, name = 2, initializer = 5, doc_string = 10,
// input = 11, output = 12, value_info = 13, sparse_initializer = 15.
type graphProto struct {
	name    string
	nodes   []*nodeProto
	inputs  []valueInfo
	outputs []valueInfo
	infos   []valueInfo
	// shadowed are the enclosing graphs' initializers this graph's hide
	// while it is read (names.go).
	shadowed []shadowed
}

func (b *builder) parseGraph(m msg, depth int) (*formats.Graph, *graphProto, error) {
	gp := &graphProto{}
	// Initializers first: writers put nodes before them, and the subgraphs
	// in those nodes name the enclosing graph's initializers.
	nodes, inits := 0, 0
	err := m.each("GraphProto", func(f field) error {
		switch {
		case f.typ != protowire.BytesType:
		case f.num == 1:
			nodes++
		case f.num == 5 || f.num == 15:
			inits++
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if depth == 0 {
		b.sizeNames(nodes + inits)
	}
	gp.shadowed = make([]shadowed, 0, inits)
	err = m.each("GraphProto", func(f field) error {
		if f.typ != protowire.BytesType || (f.num != 5 && f.num != 15) {
			return nil
		}
		return b.initializer(m, f, gp)
	})
	if err != nil {
		return nil, nil, err
	}
	err = m.each("GraphProto", func(f field) error {
		if f.typ != protowire.BytesType {
			return nil
		}
		switch f.num {
		case 1:
			n, err := b.parseNode(m.sub(f), depth)
			if err != nil {
				return err
			}
			gp.nodes = append(gp.nodes, n)
		case 2:
			gp.name = m.str(f)
		case 11, 12, 13:
			vi, err := parseValueInfo(m.sub(f))
			if err != nil {
				return err
			}
			switch f.num {
			case 11:
				gp.inputs = append(gp.inputs, vi)
			case 12:
				gp.outputs = append(gp.outputs, vi)
			default:
				gp.infos = append(gp.infos, vi)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	g := b.buildGraph(gp)
	b.markQuantised(gp)
	b.endScope(gp)
	return g, gp, nil
}

// initializer lists an initializer (5) or sparse initializer (15).
func (b *builder) initializer(m msg, f field, gp *graphProto) error {
	if f.num == 5 {
		tp, err := parseTensorProto(m.sub(f))
		if err != nil {
			return err
		}
		b.defineInit(gp, tp.name, b.addTensor(b.entry(tp, "", initializerRole(tp)), tp))
		return nil
	}
	sp, err := parseSparse(m.sub(f))
	if err != nil {
		return err
	}
	e := b.sparseEntry(sp, "", formats.RoleWeight)
	b.doc.Tensors = append(b.doc.Tensors, e)
	b.defineInit(gp, e.Name, len(b.doc.Tensors)-1)
	b.nameTensor(e.Name, len(b.doc.Tensors)-1, true)
	return nil
}

// initializerRole: float initializers are trained weights; integer ones
// are shapes, indices and quantised weights (the latter get Quant).
func initializerRole(tp *tensorProto) formats.Role {
	if dt := dtypeOf(tp.dataType); dt.IsFloat() {
		return formats.RoleWeight
	}
	return formats.RoleConstant
}

// addTensor appends e to the document and returns its index; the first
// tensor of a name is the one graphs refer to.
func (b *builder) addTensor(e *formats.TensorEntry, tp *tensorProto) int {
	b.doc.Tensors = append(b.doc.Tensors, e)
	i := len(b.doc.Tensors) - 1
	b.nameTensor(e.Name, i, false)
	return i
}

// graphBuilder turns a graphProto into a formats.Graph: the file's nodes
// first, in file order (their ids are their positions), then one input
// node per graph input that is not an initializer.
type graphBuilder struct {
	b   *builder
	gp  *graphProto
	g   *formats.Graph
	ids []nameID // per value: its name's id, to clear builder.valueOf after
}

func (b *builder) buildGraph(gp *graphProto) *formats.Graph {
	names := len(gp.inputs) + len(gp.outputs)
	for _, n := range gp.nodes {
		names += len(n.inputs) + len(n.outputs)
	}
	// Sizing once saves regrowing a slice of a million values.
	// Most values are named twice (by their producer and one consumer).
	distinct := names/2 + len(gp.inputs) + 16
	gb := &graphBuilder{b: b, gp: gp, ids: make([]nameID, 0, distinct), g: &formats.Graph{
		Nodes:  make([]formats.Node, len(gp.nodes), len(gp.nodes)+len(gp.inputs)),
		Values: make([]formats.Value, 0, distinct),
	}}
	gb.nodes()
	gb.inputs()
	for _, vi := range gp.infos {
		if id, ok := b.names[vi.name]; ok && b.valueOf[id] != noName {
			vi.typ.apply(&gb.g.Values[b.valueOf[id]])
		}
	}
	gb.outputs()
	for i := range gp.nodes {
		gb.g.Nodes[i].Meaning = meaningOf(gp.nodes[i], gb.weightShape(gp.nodes[i]), b.intsOf)
		gb.g.Nodes[i].Meaning.Scope = formats.PathScope(gp.nodes[i].name, '/')
	}
	for _, id := range gb.ids {
		b.valueOf[id] = noName
	}
	return gb.g
}

// value returns the index of the value whose name has id, creating it. A
// value no node produces may be an initializer of this graph or of an
// enclosing one.
func (gb *graphBuilder) value(id nameID) int {
	b := gb.b
	if v := b.valueOf[id]; v != noName {
		return int(v)
	}
	v := formats.Value{Name: b.nameText[id], Producer: -1, Tensor: -1}
	if t := b.tensorNamed(id); t != noName {
		v.Tensor = int(t)
		e := b.doc.Tensors[t]
		v.DType, v.Shape = e.DType, e.Shape
	}
	gb.g.Values = append(gb.g.Values, v)
	gb.ids = append(gb.ids, id)
	b.valueOf[id] = int32(len(gb.g.Values) - 1)
	return len(gb.g.Values) - 1
}

// emptyName is the id of "", an omitted optional input or output.
func (b *builder) emptyName() nameID { return b.idOf("") }

func (gb *graphBuilder) nodes() {
	g := gb.g
	var ids arena[int] // every node's inputs and outputs in one allocation
	total := 0
	for _, n := range gb.gp.nodes {
		total += len(n.inputs) + len(n.outputs)
	}
	ids.chunk = make([]int, 0, total)
	omitted := gb.b.emptyName()
	for i, n := range gb.gp.nodes {
		node := &g.Nodes[i]
		*node = formats.Node{ID: i, Name: n.name, Op: n.op, Attrs: n.attrs, Subgraphs: n.subgraphs}
		if n.op == "Constant" && (n.domain == "" || n.domain == "ai.onnx") {
			node.Kind = formats.KindConst
		}
		node.Outputs = ids.take(len(n.outputs))
		for _, id := range n.outIDs {
			if id == omitted {
				continue
			}
			v := gb.value(id)
			val := &g.Values[v]
			if val.Producer >= 0 {
				gb.b.warn(n.at, "value %q is produced by node %d and again by node %d %q", val.Name, val.Producer, i, n.name)
				continue
			}
			val.Producer = i
			if node.Kind == formats.KindConst {
				if t := gb.b.tensorOf[id]; t != noName {
					val.Tensor = int(t)
					val.DType, val.Shape = gb.b.doc.Tensors[t].DType, gb.b.doc.Tensors[t].Shape
				}
			}
			node.Outputs = append(node.Outputs, v)
		}
	}
	for i, n := range gb.gp.nodes {
		ins := ids.take(len(n.inputs))
		for _, id := range n.inIDs {
			if id != omitted {
				ins = append(ins, gb.value(id))
			}
		}
		g.Nodes[i].Inputs = ins
	}
}

// inputs adds a node per graph input that is not an initializer (IR < 4
// lists initializers among the inputs too).
func (gb *graphBuilder) inputs() {
	for _, vi := range gb.gp.inputs {
		name := gb.b.idOf(vi.name)
		v := gb.value(name)
		val := &gb.g.Values[v]
		vi.typ.apply(val)
		if gb.b.isInit(gb.gp, name) {
			continue
		}
		id := len(gb.g.Nodes)
		if val.Producer >= 0 {
			gb.b.warn(vi.at, "graph input %q is also produced by node %d", vi.name, val.Producer)
			continue
		}
		val.Producer = id
		gb.g.Nodes = append(gb.g.Nodes, formats.Node{ID: id, Name: vi.name, Op: "Input", Kind: formats.KindInput,
			Outputs: []int{v}, Attrs: []formats.Attr{{Name: "type", Value: vi.typ.text}},
			Meaning: formats.Meaning{Category: formats.CategoryInput, Scope: formats.PathScope(vi.name, '/')}})
		gb.g.Inputs = append(gb.g.Inputs, id)
	}
}

// outputs records the graph outputs and their producers (once each).
func (gb *graphBuilder) outputs() {
	seen := map[int]bool{}
	for _, vi := range gb.gp.outputs {
		v := gb.value(gb.b.idOf(vi.name))
		vi.typ.apply(&gb.g.Values[v])
		gb.g.OutputValues = append(gb.g.OutputValues, v)
		if p := gb.g.Values[v].Producer; p >= 0 && !seen[p] {
			seen[p] = true
			gb.g.Outputs = append(gb.g.Outputs, p)
		}
	}
}

// weightShape is the shape of a node's weight (its second input) when an
// initializer holds it: convolution and linear layers derive channels and
// kernels from it.
func (gb *graphBuilder) weightShape(n *nodeProto) []int {
	idx := 1
	if n.op == "QLinearConv" || n.op == "QLinearMatMul" {
		idx = 3
	}
	if len(n.inIDs) <= idx {
		return nil
	}
	id := n.inIDs[idx]
	b := gb.b
	if t := b.initOf[id].tensor; t != noName {
		return b.doc.Tensors[t].Shape
	}
	if t := b.tensorOf[id]; t != noName && b.doc.Tensors[t].DType != tensor.Invalid {
		return b.doc.Tensors[t].Shape
	}
	return nil
}
