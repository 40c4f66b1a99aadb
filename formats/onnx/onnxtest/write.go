// Package onnxtest writes ONNX models for tests and benchmarks: small
// models with any data type and storage (raw_data, typed fields, external
// data), generated large graphs, and the hostile files the decoder must
// survive. It encodes with protowire, field numbers as in onnx.proto.
package onnxtest

import (
	"google.golang.org/protobuf/encoding/protowire"
)

// Model is a ModelProto.
type Model struct {
	IRVersion int64
	Opsets    map[string]int64 // domain → version; "" is ai.onnx
	Producer  string
	Props     [][2]string // metadata_props
	Graph     Graph
}

// Graph is a GraphProto.
type Graph struct {
	Name         string
	Nodes        []Node
	Initializers []Tensor
	Sparse       []SparseTensor
	Inputs       []ValueInfo
	Outputs      []ValueInfo
	ValueInfo    []ValueInfo
}

// Node is a NodeProto.
type Node struct {
	Op, Name, Domain string
	Inputs, Outputs  []string
	Attrs            []Attr
}

// Attr is an AttributeProto; Type is the AttributeType and exactly the
// field it names is written.
type Attr struct {
	Name    string
	Type    int64 // 1 FLOAT … 10 GRAPHS, as onnx.proto numbers them
	F       float32
	I       int64
	S       string
	T       *Tensor
	G       *Graph
	Floats  []float32
	Ints    []int64
	Strings []string
	Tensors []Tensor
	Graphs  []Graph
}

// Tensor is a TensorProto. Values go in Raw (raw_data) or in one typed
// field; External entries make it external data.
type Tensor struct {
	Name       string
	DataType   int64
	Dims       []int64
	Raw        []byte
	HasRaw     bool // write raw_data even when Raw is empty
	FloatData  []float32
	Int32Data  []int32
	Int64Data  []int64
	DoubleData []float64
	Uint64Data []uint64
	StringData []string
	External   [][2]string // key, value: location, offset, length
}

// SparseTensor is a SparseTensorProto.
type SparseTensor struct {
	Values, Indices Tensor
	Dims            []int64
}

// ValueInfo is a ValueInfoProto with a tensor type; a dim is an int64
// (dim_value) or a string (dim_param). Dims nil means no shape.
type ValueInfo struct {
	Name     string
	ElemType int64
	Dims     []any
}

// Marshal encodes the model.
func (m *Model) Marshal() []byte {
	b := m.AppendHeader(nil)
	return protowire.AppendBytes(protowire.AppendTag(b, 7, protowire.BytesType), m.Graph.Marshal())
}

// AppendHeader appends the fields before the graph: ir_version, producer,
// opset imports, metadata_props.
func (m *Model) AppendHeader(b []byte) []byte {
	b = varintField(b, 1, uint64(m.IRVersion))
	if m.Producer != "" {
		b = stringField(b, 2, m.Producer)
	}
	for domain, v := range m.Opsets {
		var o []byte
		if domain != "" {
			o = stringField(o, 1, domain)
		}
		o = varintField(o, 2, uint64(v))
		b = bytesField(b, 8, o)
	}
	for _, kv := range m.Props {
		b = bytesField(b, 14, stringField(stringField(nil, 1, kv[0]), 2, kv[1]))
	}
	return b
}

// Marshal encodes the graph.
func (g *Graph) Marshal() []byte {
	var b []byte
	for i := range g.Nodes {
		b = bytesField(b, 1, g.Nodes[i].Marshal())
	}
	if g.Name != "" {
		b = stringField(b, 2, g.Name)
	}
	for i := range g.Initializers {
		b = bytesField(b, 5, g.Initializers[i].Marshal())
	}
	for _, vi := range g.Inputs {
		b = bytesField(b, 11, vi.Marshal())
	}
	for _, vi := range g.Outputs {
		b = bytesField(b, 12, vi.Marshal())
	}
	for _, vi := range g.ValueInfo {
		b = bytesField(b, 13, vi.Marshal())
	}
	for i := range g.Sparse {
		s := &g.Sparse[i]
		sb := bytesField(nil, 1, s.Values.Marshal())
		sb = bytesField(sb, 2, s.Indices.Marshal())
		sb = packedVarints(sb, 3, s.Dims)
		b = bytesField(b, 15, sb)
	}
	return b
}

// Marshal encodes the node.
func (n *Node) Marshal() []byte {
	var b []byte
	for _, in := range n.Inputs {
		b = stringField(b, 1, in)
	}
	for _, out := range n.Outputs {
		b = stringField(b, 2, out)
	}
	if n.Name != "" {
		b = stringField(b, 3, n.Name)
	}
	b = stringField(b, 4, n.Op)
	for i := range n.Attrs {
		b = bytesField(b, 5, n.Attrs[i].Marshal())
	}
	if n.Domain != "" {
		b = stringField(b, 7, n.Domain)
	}
	return b
}

// Marshal encodes the attribute.
func (a *Attr) Marshal() []byte {
	b := stringField(nil, 1, a.Name)
	switch a.Type {
	case 1:
		b = protowire.AppendFixed32(protowire.AppendTag(b, 2, protowire.Fixed32Type), f32bits(a.F))
	case 2:
		b = varintField(b, 3, uint64(a.I))
	case 3:
		b = stringField(b, 4, a.S)
	case 4:
		b = bytesField(b, 5, a.T.Marshal())
	case 5:
		b = bytesField(b, 6, a.G.Marshal())
	case 6:
		var p []byte
		for _, f := range a.Floats {
			p = protowire.AppendFixed32(p, f32bits(f))
		}
		b = bytesField(b, 7, p)
	case 7:
		b = packedVarints(b, 8, a.Ints)
	case 8:
		for _, s := range a.Strings {
			b = stringField(b, 9, s)
		}
	case 9:
		for i := range a.Tensors {
			b = bytesField(b, 10, a.Tensors[i].Marshal())
		}
	case 10:
		for i := range a.Graphs {
			b = bytesField(b, 11, a.Graphs[i].Marshal())
		}
	}
	return varintField(b, 20, uint64(a.Type))
}

// Marshal encodes the tensor.
func (t *Tensor) Marshal() []byte {
	b := t.AppendHeader(nil)
	if t.HasRaw || t.Raw != nil {
		b = bytesField(b, 9, t.Raw)
	}
	return b
}

// AppendHeader appends everything but raw_data, which large tensors
// stream after it.
func (t *Tensor) AppendHeader(b []byte) []byte {
	b = packedVarints(b, 1, t.Dims)
	b = varintField(b, 2, uint64(t.DataType))
	if t.FloatData != nil {
		var p []byte
		for _, f := range t.FloatData {
			p = protowire.AppendFixed32(p, f32bits(f))
		}
		b = bytesField(b, 4, p)
	}
	if t.Int32Data != nil {
		var p []byte
		for _, v := range t.Int32Data {
			p = protowire.AppendVarint(p, uint64(int64(v)))
		}
		b = bytesField(b, 5, p)
	}
	for _, s := range t.StringData {
		b = stringField(b, 6, s)
	}
	if t.Int64Data != nil {
		b = packedVarints(b, 7, t.Int64Data)
	}
	b = stringField(b, 8, t.Name)
	if t.DoubleData != nil {
		var p []byte
		for _, f := range t.DoubleData {
			p = protowire.AppendFixed64(p, f64bits(f))
		}
		b = bytesField(b, 10, p)
	}
	if t.Uint64Data != nil {
		var p []byte
		for _, v := range t.Uint64Data {
			p = protowire.AppendVarint(p, v)
		}
		b = bytesField(b, 11, p)
	}
	for _, kv := range t.External {
		b = bytesField(b, 13, stringField(stringField(nil, 1, kv[0]), 2, kv[1]))
	}
	if t.External != nil {
		b = varintField(b, 14, 1)
	}
	return b
}

// Marshal encodes the value info.
func (v *ValueInfo) Marshal() []byte {
	b := stringField(nil, 1, v.Name)
	tt := varintField(nil, 1, uint64(v.ElemType))
	if v.Dims != nil {
		var shape []byte
		for _, d := range v.Dims {
			var dim []byte
			switch d := d.(type) {
			case int64:
				dim = varintField(nil, 1, uint64(d))
			case int:
				dim = varintField(nil, 1, uint64(d))
			case string:
				dim = stringField(nil, 2, d)
			}
			shape = bytesField(shape, 1, dim)
		}
		tt = bytesField(tt, 2, shape)
	}
	return bytesField(b, 2, bytesField(nil, 1, tt))
}

func varintField(b []byte, num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
}

func stringField(b []byte, num protowire.Number, s string) []byte {
	return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), s)
}

func bytesField(b []byte, num protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
}

func packedVarints(b []byte, num protowire.Number, vs []int64) []byte {
	if len(vs) == 0 {
		return b
	}
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, uint64(v))
	}
	return bytesField(b, num, p)
}
