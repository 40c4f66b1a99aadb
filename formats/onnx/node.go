package onnx

import (
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"tensorscope/formats"
)

// nodeProto is a NodeProto as read: names of its inputs and outputs (an
// empty input name is an omitted optional input), its attributes decoded,
// and the graphs its attributes hold.
type nodeProto struct {
	at        int64
	name      string
	op        string
	domain    string
	inputs    []string
	outputs   []string
	inIDs     []nameID // the names' ids, in the same order
	outIDs    []nameID
	attrs     []formats.Attr
	subgraphs []formats.Subgraph
	constant  *tensorProto // a Constant node's value tensor
	sparse    *sparseProto // a Constant node's sparse_value
}

// NodeProto fields: input = 1, output = 2, name = 3, op_type = 4,
// attribute = 5, doc_string = 6, domain = 7, overload = 8. Attributes are
// read in a second pass over the node's fields, once the names they refer
// to (a Constant's output) are known; the names of inputs and outputs go
// through a scratch list into one shared arena, not a slice per node.
func (b *builder) parseNode(m msg, depth int) (*nodeProto, error) {
	n := b.nodeArena.one()
	n.at = m.start
	ins, outs := b.scratchIns[:0], b.scratchOuts[:0]
	inIDs, outIDs := b.scratchInIDs[:0], b.scratchOutIDs[:0]
	attrs := 0
	err := m.each("NodeProto", func(f field) error {
		if f.typ != protowire.BytesType {
			return nil
		}
		switch f.num {
		case 1:
			s, id := b.intern(m.bytesOf(f))
			ins, inIDs = append(ins, s), append(inIDs, id)
		case 2:
			s, id := b.intern(m.bytesOf(f))
			outs, outIDs = append(outs, s), append(outIDs, id)
		case 3:
			n.name = m.str(f)
		case 4:
			n.op, _ = b.intern(m.bytesOf(f))
		case 5:
			attrs++
		case 7:
			n.domain, _ = b.intern(m.bytesOf(f))
		}
		return nil
	})
	b.scratchIns, b.scratchOuts = ins, outs
	b.scratchInIDs, b.scratchOutIDs = inIDs, outIDs
	if err != nil {
		return nil, err
	}
	n.inputs, n.outputs = b.nameArena.copy(ins), b.nameArena.copy(outs)
	n.inIDs, n.outIDs = b.idArena.copy(inIDs), b.idArena.copy(outIDs)
	foreign := n.domain != "" && n.domain != "ai.onnx"
	if foreign {
		attrs++
	}
	if attrs == 0 {
		return n, nil
	}
	n.attrs = b.attrArena.take(attrs)
	if foreign {
		n.attrs = append(n.attrs, formats.Attr{Name: "domain", Value: n.domain})
	}
	err = m.each("NodeProto", func(f field) error {
		if f.num != 5 || f.typ != protowire.BytesType {
			return nil
		}
		return b.parseAttribute(m.sub(f), n, depth)
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// AttributeProto fields.
const (
	attrName          = 1
	attrF             = 2
	attrI             = 3
	attrS             = 4
	attrT             = 5
	attrG             = 6
	attrFloats        = 7
	attrInts          = 8
	attrStrings       = 9
	attrTensors       = 10
	attrGraphs        = 11
	attrTP            = 14
	attrTypeProtos    = 15
	attrType          = 20
	attrRefName       = 21
	attrSparseTensor  = 22
	attrSparseTensor2 = 23
)

// attribute collects an AttributeProto's fields before its value is typed.
type attribute struct {
	name    string
	typ     int64
	hasType bool
	refName string
	f       float64
	i       int64
	s       []byte
	floats  []float64
	ints    []int64
	strings []string
	tensors []field
	graphs  []field
	types   []field
	sparse  []field
	has     uint32 // bit k: field k is present
}

// maxSharedAttr bounds the encoded size of an attribute kept for reuse:
// the shared ones are a kernel_shape, strides or an axis, a few bytes each.
const maxSharedAttr = 256

func (b *builder) parseAttribute(m msg, n *nodeProto, depth int) error {
	raw := m.data[m.start:m.end]
	if a, ok := b.sharedAttrs[string(raw)]; ok {
		n.attrs = append(n.attrs, a)
		return nil
	}
	var a attribute
	err := m.each("AttributeProto", func(f field) error {
		if f.num < 32 {
			a.has |= 1 << f.num
		}
		switch f.num {
		case attrName:
			a.name, _ = b.intern(m.bytesOf(f))
		case attrF:
			if err := wantType(f, "AttributeProto.f", protowire.Fixed32Type); err != nil {
				return err
			}
			a.f = float64(f32(f.varint))
		case attrI:
			if err := wantType(f, "AttributeProto.i", protowire.VarintType); err != nil {
				return err
			}
			a.i = int64(f.varint)
		case attrS:
			a.s = m.bytesOf(f)
		case attrFloats:
			return m.packedOrSingle(f, "AttributeProto.floats", protowire.Fixed32Type, func(v uint64) { a.floats = append(a.floats, float64(f32(v))) })
		case attrInts:
			return m.packedOrSingle(f, "AttributeProto.ints", protowire.VarintType, func(v uint64) { a.ints = append(a.ints, int64(v)) })
		case attrStrings:
			a.strings = append(a.strings, text(m.bytesOf(f)))
		case attrT:
			a.tensors = append(a.tensors, f)
		case attrTensors:
			a.tensors = append(a.tensors, f)
		case attrG, attrGraphs:
			a.graphs = append(a.graphs, f)
		case attrTP, attrTypeProtos:
			a.types = append(a.types, f)
		case attrSparseTensor, attrSparseTensor2:
			a.sparse = append(a.sparse, f)
		case attrType:
			a.typ, a.hasType = int64(f.varint), true
		case attrRefName:
			a.refName = m.str(f)
		}
		return nil
	})
	if err != nil {
		return err
	}
	value, err := b.attrValue(m, &a, n, depth)
	if err != nil {
		return err
	}
	attr := formats.Attr{Name: a.name, Value: value}
	n.attrs = append(n.attrs, attr)
	if a.plain() && len(raw) <= maxSharedAttr {
		b.sharedAttrs[string(raw)] = attr
	}
	return nil
}

// plain reports whether the attribute's value depends on its bytes alone,
// so that nodes whose attribute is encoded alike can share one decoded
// value (50,000 convolutions name a handful of kernel shapes). Tensors and
// graphs are listed per node, so they are never shared.
func (a *attribute) plain() bool {
	return a.refName == "" && len(a.tensors) == 0 && len(a.graphs) == 0 && len(a.types) == 0 && len(a.sparse) == 0
}

// attrValue types an attribute by its declared type, or, in files that
// omit the type (IR 1), by the field that holds a value.
func (b *builder) attrValue(m msg, a *attribute, n *nodeProto, depth int) (any, error) {
	if a.refName != "" {
		return "ref " + a.refName, nil
	}
	typ := a.typ
	if !a.hasType {
		typ = a.inferType()
	}
	switch typ {
	case 1:
		return a.f, nil
	case 2:
		return a.i, nil
	case 3:
		return text(a.s), nil
	case 6:
		return nonNil(a.floats), nil
	case 7:
		return nonNil(a.ints), nil
	case 8:
		return nonNil(a.strings), nil
	case 4, 9:
		return b.tensorAttr(m, a, n, typ == 4)
	case 5, 10:
		return b.graphAttr(m, a, n, depth, typ == 5)
	case 11, 12:
		return b.sparseAttr(m, a, n)
	case 13, 14:
		var parts []string
		for _, f := range a.types {
			t, err := parseType(m.sub(f), 0)
			if err != nil {
				return nil, err
			}
			parts = append(parts, t.text)
		}
		if typ == 13 && len(parts) == 1 {
			return parts[0], nil
		}
		return nonNil(parts), nil
	}
	return nil, nil
}

func (a *attribute) inferType() int64 {
	switch {
	case a.present(attrF):
		return 1
	case a.present(attrI):
		return 2
	case a.present(attrS):
		return 3
	case a.present(attrT):
		return 4
	case a.present(attrG):
		return 5
	case a.present(attrFloats):
		return 6
	case a.present(attrInts):
		return 7
	case a.present(attrStrings):
		return 8
	case a.present(attrTensors):
		return 9
	case a.present(attrGraphs):
		return 10
	}
	return 0
}

func (a *attribute) present(num int) bool { return a.has&(1<<num) != 0 }

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// text is a string attribute as text, or as hex bytes when it is not UTF-8.
func text(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return fmt.Sprintf("% x", b)
}

// tensorAttr lists an attribute's tensors in the document (a Constant
// node's value under the node's output name, others as "node.attr") and
// describes them.
func (b *builder) tensorAttr(m msg, a *attribute, n *nodeProto, single bool) (any, error) {
	var descs []string
	for i, f := range a.tensors {
		tp, err := parseTensorProto(m.sub(f))
		if err != nil {
			return nil, err
		}
		name := ""
		role := formats.RoleConstant
		if n.op == "Constant" && a.name == "value" && len(n.outputs) > 0 {
			name = n.outputs[0]
			n.constant = tp
		} else {
			base := n.name
			if base == "" && len(n.outputs) > 0 {
				base = n.outputs[0]
			}
			name = base + "." + a.name
			if !single {
				name += fmt.Sprintf("[%d]", i)
			}
		}
		e := b.entry(tp, name, role)
		b.addTensor(e, tp)
		descs = append(descs, tensorText(e))
	}
	if single && len(descs) == 1 {
		return descs[0], nil
	}
	return nonNil(descs), nil
}

func tensorText(e *formats.TensorEntry) string {
	return fmt.Sprintf("tensor %s %s", e.Name, shapeOf(e))
}

func shapeOf(e *formats.TensorEntry) string {
	return fmt.Sprintf("%s%v", e.TypeString(), e.Shape)
}

// graphAttr decodes an attribute's graphs as the node's subgraphs, unless
// they are nested too deep.
func (b *builder) graphAttr(m msg, a *attribute, n *nodeProto, depth int, single bool) (any, error) {
	var descs []string
	for i, f := range a.graphs {
		name := a.name
		if !single {
			name = fmt.Sprintf("%s[%d]", a.name, i)
		}
		if depth+1 >= maxGraphDepth {
			b.warn(f.valAt, "node %q: subgraph %s is nested %d graphs deep; deeper graphs are not read", n.name, name, depth+1)
			descs = append(descs, "graph (nested too deep, not read)")
			continue
		}
		g, gp, err := b.parseGraph(m.sub(f), depth+1)
		if err != nil {
			return nil, err
		}
		n.subgraphs = append(n.subgraphs, formats.Subgraph{Name: name, Graph: g})
		descs = append(descs, fmt.Sprintf("graph %s (%s)", gp.name, nodeCount(countOps(g))))
	}
	if single && len(descs) == 1 {
		return descs[0], nil
	}
	return nonNil(descs), nil
}

func countOps(g *formats.Graph) int {
	n := 0
	for i := range g.Nodes {
		if g.Nodes[i].Kind != formats.KindInput {
			n++
		}
	}
	return n
}

// nodeCount is "1 node" or "N nodes".
func nodeCount(n int) string {
	if n == 1 {
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}
