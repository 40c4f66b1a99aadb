package tmfile

import (
	"context"
	"fmt"
	"strconv"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// docBuilder turns a decoded Model into the document every pane reads.
type docBuilder struct {
	doc *formats.Document
	src *formats.Source
	m   *Model
	idx *fileIndex
}

func (b *docBuilder) build() {
	b.header()
	b.tensors()
	b.graph()
	b.metadata()
	b.opTable()
}

func (b *docBuilder) header() {
	m, idx := b.m, b.idx
	padMeaning := "alignment gap of TM2_Header"
	if idx.headerPad != 0 {
		padMeaning = "junk: the writer left this alignment gap uninitialised; ignored"
	}
	h := []formats.HeaderField{
		{Name: "ver_main", Offset: 0, Size: 2, Value: int64(m.VerMain), Meaning: "TM2 file format"},
		{Name: "ver_sub", Offset: 2, Size: 2, Value: int64(m.VerSub)},
		{Name: "ver_compile", Offset: 4, Size: 2, Value: int64(m.VerCompile)},
		{Name: "padding", Offset: 6, Size: 2, Value: int64(idx.headerPad), Meaning: padMeaning},
		{Name: "offset_root", Offset: 8, Size: 4, Value: idx.root, Meaning: "root table (TM2_Model)"},
	}
	root := idx.root
	le := func(at int64) int64 { return int64(int32(leU32(b.src.Data, at))) }
	off := func(at int64) int64 { return int64(leU32(b.src.Data, at)) }
	subMeaning := "1 subgraph"
	if idx.nSubgraphs > 1 {
		subMeaning = fmt.Sprintf("vector of %d subgraphs; only the first is read (Tengine supports one)", idx.nSubgraphs)
	}
	h = append(h,
		formats.HeaderField{Name: "model.orig_format", Offset: root, Size: 4, Value: le(root), Meaning: FormatName(m.OrigFormat)},
		formats.HeaderField{Name: "model.sub_format", Offset: root + 4, Size: 4, Value: le(root + 4)},
		formats.HeaderField{Name: "model.offset_vo_subgraphs", Offset: root + 8, Size: 4, Value: off(root + 8), Meaning: subMeaning},
		formats.HeaderField{Name: "model.offset_s_mname", Offset: root + 12, Size: 4, Value: off(root + 12), Meaning: absentOr(m.Name)},
	)
	sg := idx.subgraph
	h = append(h,
		formats.HeaderField{Name: "subgraph.subgraph_id", Offset: sg, Size: 4, Value: off(sg)},
		formats.HeaderField{Name: "subgraph.graph_layout", Offset: sg + 4, Size: 4, Value: le(sg + 4), Meaning: layoutNames[le(sg+4)]},
		formats.HeaderField{Name: "subgraph.model_layout", Offset: sg + 8, Size: 4, Value: le(sg + 8), Meaning: layoutNames[le(sg+8)]},
		formats.HeaderField{Name: "subgraph.offset_vi_input_indices", Offset: sg + 12, Size: 4, Value: off(sg + 12), Meaning: plural(len(m.Inputs), "input node")},
		formats.HeaderField{Name: "subgraph.offset_vi_output_indices", Offset: sg + 16, Size: 4, Value: off(sg + 16), Meaning: plural(len(m.Outputs), "output node")},
		formats.HeaderField{Name: "subgraph.offset_vo_seq_nodes", Offset: sg + 20, Size: 4, Value: off(sg + 20), Meaning: plural(len(m.Nodes), "node")},
		formats.HeaderField{Name: "subgraph.offset_vo_tensors", Offset: sg + 24, Size: 4, Value: off(sg + 24), Meaning: plural(len(m.Tensors), "tensor")},
		formats.HeaderField{Name: "subgraph.offset_vo_buffers", Offset: sg + 28, Size: 4, Value: off(sg + 28), Meaning: plural(len(m.Buffers), "buffer")},
		formats.HeaderField{Name: "subgraph.offset_s_sname", Offset: sg + 32, Size: 4, Value: off(sg + 32), Meaning: absentOr(m.SubgraphName)},
	)
	if idx.subgraphLen == subgraphSizeNew {
		meaning := "not used: the subgraph vector has one entry, so this field is junk"
		switch {
		case len(m.SubInfo) > 0:
			meaning = plural(len(m.SubInfo), "device partition")
		case idx.nSubgraphs > 1 && idx.subInfoField != 0:
			meaning = "unreadable (see warnings)"
		case idx.subInfoField == 0:
			meaning = "absent"
		}
		h = append(h, formats.HeaderField{Name: "subgraph.offset_vo_sub_info", Offset: sg + 36, Size: 4,
			Value: int64(idx.subInfoField), Meaning: meaning})
	}
	b.doc.Header = h
	b.doc.HeaderSpan = formats.Span{Offset: 0, Len: headerSize}
}

func leU32(data []byte, at int64) uint32 {
	if at < 0 || at+4 > int64(len(data)) {
		return 0
	}
	return uint32(data[at]) | uint32(data[at+1])<<8 | uint32(data[at+2])<<16 | uint32(data[at+3])<<24
}

func absentOr(s string) string {
	if s == "" {
		return "absent"
	}
	return strconv.Quote(s)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// Boxed once: most tensors share these attribute values, and boxing an
// Enum into an interface allocates.
var (
	layoutValues     = [2]any{layoutNames.enum(0), layoutNames.enum(1)}
	tensorTypeValues = [5]any{tensorTypeNames.enum(0), tensorTypeNames.enum(1), tensorTypeNames.enum(2),
		tensorTypeNames.enum(3), tensorTypeNames.enum(4)}
)

// dtypeOf maps TM2 data types onto tensor dtypes.
func dtypeOf(dt int32) tensor.DType {
	switch dt {
	case DataFP32:
		return tensor.Float32
	case DataFP16:
		return tensor.Float16
	case DataInt8:
		return tensor.Int8
	case DataUint8:
		return tensor.Uint8
	case DataInt32:
		return tensor.Int32
	case DataInt16:
		return tensor.Int16
	}
	return tensor.Invalid
}

// tensorName is the tensor's name, or a stand-in for unnamed tensors so
// that every entry can be looked up by name.
func tensorName(m *Model, i int) string {
	if n := m.Tensors[i].Name; n != "" {
		return n
	}
	return "tensor" + strconv.Itoa(i)
}

func (b *docBuilder) tensors() {
	m, idx, doc := b.m, b.idx, b.doc
	doc.Tensors = make([]*formats.TensorEntry, len(m.Tensors))
	entries := make([]formats.TensorEntry, len(m.Tensors))
	// Shapes and attribute lists of all tensors share two backing arrays.
	dims := 0
	for i := range m.Tensors {
		dims += len(m.Tensors[i].Dims)
	}
	shapes := make([]int, 0, dims)
	attrs := make([]formats.Attr, 0, 3*len(m.Tensors))
	badLayouts, firstBad := 0, -1
	for i := range m.Tensors {
		t := &m.Tensors[i]
		e := &entries[i]
		doc.Tensors[i] = e
		e.Name = tensorName(m, i)
		e.DType = dtypeOf(t.DataType)
		e.Offset = -1
		if t.Dims != nil {
			start := len(shapes)
			for _, d := range t.Dims {
				shapes = append(shapes, int(d))
			}
			e.Shape = shapes[start:len(shapes):len(shapes)]
		}
		at := idx.tensorAt[i]
		if !e.DType.Valid() {
			doc.Warn(at+28, "tensor %d (%q) has data_type %d, which TM2 does not define", i, e.Name, t.DataType)
		}
		var layout any
		if t.Layout == LayoutNCHW || t.Layout == LayoutNHWC {
			layout = layoutValues[t.Layout]
		} else {
			layout = int64(t.Layout)
			badLayouts++
			if firstBad < 0 {
				firstBad = i
			}
		}
		var typ any
		if t.Type >= 0 && int(t.Type) < len(tensorTypeValues) {
			typ = tensorTypeValues[t.Type]
		} else {
			typ = tensorTypeNames.enum(int64(t.Type))
		}
		start := len(attrs)
		attrs = append(attrs, formats.Attr{Name: "type", Value: typ}, formats.Attr{Name: "layout", Value: layout})
		if t.ID != uint32(i) {
			attrs = append(attrs, formats.Attr{Name: "tensor_id", Value: int64(t.ID)})
		}
		if t.Type == TypeConst {
			attrs = append(attrs, formats.Attr{Name: "buffer", Value: int64(t.BufferID)})
		}
		e.Attrs = attrs[start:len(attrs):len(attrs)]
		e.Quant = b.quant(i, t, e)
		switch t.Type {
		case TypeVar:
			e.Role = formats.RoleActivation
		case TypeInput:
			e.Role = formats.RoleInput
		case TypeDep:
			e.Role = formats.RoleVariable
			e.Note = "dependency-only tensor (DEP): it orders nodes and carries no data"
		case TypeConst:
			e.Role = formats.RoleConstant
			if e.DType.IsFloat() || len(t.Quant) > 0 {
				e.Role = formats.RoleWeight
			}
			b.constData(i, t, e)
		default:
			e.Role = formats.RoleUnknown
			doc.Warn(at+24, "tensor %d (%q) has type %d, which TM2 does not define", i, e.Name, t.Type)
		}
	}
	if badLayouts > 0 {
		t := &m.Tensors[firstBad]
		doc.Warn(idx.tensorAt[firstBad]+20, "%d of %d tensors store a layout that is neither NCHW (0) nor NHWC (1), e.g. %d in tensor %q: junk the writer left; shown as stored",
			badLayouts, len(m.Tensors), t.Layout, tensorName(m, firstBad))
	}
}

// quant turns the tensor's quant params into the document's form: one
// entry is per tensor, several are per channel along dimension 0 (the
// output channels of a weight, as Tengine quantises them).
func (b *docBuilder) quant(i int, t *Tensor, e *formats.TensorEntry) *formats.Quant {
	if len(t.Quant) == 0 {
		return nil
	}
	q := &formats.Quant{Scales: make([]float64, len(t.Quant)), ZeroPoints: make([]int64, len(t.Quant))}
	for k, p := range t.Quant {
		q.Scales[k] = float64(p.Scale)
		q.ZeroPoints[k] = int64(p.ZeroPoint)
	}
	if len(t.Quant) > 1 && (len(t.Dims) == 0 || int(t.Dims[0]) != len(t.Quant)) {
		b.doc.Warn(b.idx.tensorAt[i]+16, "tensor %d (%q) has %d quant params, but its first dimension is not %d; per-channel values may not apply",
			i, e.Name, len(t.Quant), len(t.Quant))
	}
	return q
}

// constData checks a CONST tensor's buffer and installs a loader that views
// the mapped file: no data is copied.
func (b *docBuilder) constData(i int, t *Tensor, e *formats.TensorEntry) {
	m, idx, doc := b.m, b.idx, b.doc
	at := idx.tensorAt[i]
	if int64(t.BufferID) >= int64(len(m.Buffers)) {
		e.Note = "no data: its buffer index is outside the buffer vector"
		doc.Warn(at+4, "CONST tensor %d (%q) refers to buffer %d, but the file has %d buffers", i, e.Name, t.BufferID, len(m.Buffers))
		return
	}
	buf := &m.Buffers[t.BufferID]
	if buf.Data == nil {
		e.Note = "no weight data in the file (buffer offset 0: a benchmark file)"
		return
	}
	dataAt := idx.dataAt[t.BufferID]
	e.Offset = dataAt
	e.NBytes = int64(buf.Size)
	if !e.DType.Valid() {
		e.Note = "no data view: unknown data type"
		return
	}
	shape := e.Shape
	if shape == nil {
		shape = []int{int(buf.Size) / e.DType.Size()}
		e.Shape = shape
		doc.Warn(at+8, "CONST tensor %d (%q) has data but no dims; shown as 1-D", i, e.Name)
	}
	n, err := tensor.NumElements(shape)
	if err != nil {
		e.Note = "no data view: " + err.Error()
		doc.Warn(at+8, "tensor %d (%q): %v", i, e.Name, err)
		return
	}
	want := int64(n) * int64(e.DType.Size())
	if want != int64(buf.Size) {
		doc.Warn(idx.bufferAt[t.BufferID], "tensor %d (%q) is %s = %d bytes, but its buffer %d holds %d bytes",
			i, e.Name, tensor.FormatShape(e.DType, shape), want, t.BufferID, buf.Size)
		if want > int64(buf.Size) {
			e.Note = "no data view: the buffer is smaller than the tensor"
			return
		}
	}
	st, dt := b.src.Storage, e.DType
	e.SetLoader(func(ctx context.Context) (*tensor.Tensor, error) {
		return tensor.New(st, dataAt, dt, shape)
	})
}

func (b *docBuilder) graph() {
	m, doc := b.m, b.doc
	g := &formats.Graph{
		Nodes:  make([]formats.Node, len(m.Nodes)),
		Values: make([]formats.Value, len(m.Tensors)),
	}
	for i := range g.Values {
		v := &g.Values[i]
		e := doc.Tensors[i]
		*v = formats.Value{Name: e.Name, DType: e.DType, Shape: e.Shape, Producer: -1, Tensor: i}
	}
	nt := len(m.Tensors)
	// One backing array for every node's input and output ids.
	total := 0
	for i := range m.Nodes {
		total += len(m.Nodes[i].Inputs) + len(m.Nodes[i].Outputs)
	}
	ids := make([]int, 0, total)
	reserved := make([]formats.Attr, 0, len(m.Nodes))
	badRefs, firstBad := 0, ""
	multi, firstMulti := 0, ""
	keep := func(node int, name string, list []uint32) []int {
		start := len(ids)
		for _, t := range list {
			if int64(t) >= int64(nt) {
				badRefs++
				if firstBad == "" {
					firstBad = fmt.Sprintf("node %d (%q) refers to tensor %d", node, name, t)
				}
				continue
			}
			ids = append(ids, int(t))
		}
		return ids[start:len(ids):len(ids)]
	}
	for i := range m.Nodes {
		n := &m.Nodes[i]
		gn := &g.Nodes[i]
		gn.ID = i
		gn.Name = n.Name
		gn.Op = OpName(n.Op.Type)
		switch n.Op.Type {
		case opConst:
			gn.Kind = formats.KindConst
		case opInput:
			gn.Kind = formats.KindInput
		}
		gn.Attrs = n.Op.Attrs()
		gn.Meaning = n.Op.Meaning()
		gn.Meaning.Scope = scopeOf(n.Name)
		gn.Reserved = b.reserved(i, n, &reserved)
		gn.Inputs = keep(i, n.Name, n.Inputs)
		gn.Outputs = keep(i, n.Name, n.Outputs)
		for _, t := range gn.Outputs {
			v := &g.Values[t]
			if v.Producer < 0 {
				v.Producer = i
			} else if v.Producer != i {
				multi++
				if firstMulti == "" {
					firstMulti = fmt.Sprintf("tensor %d (%q) is output by nodes %d and %d", t, v.Name, v.Producer, i)
				}
			}
		}
		if n.Op.Type == opConvolution {
			b.convInChannels(gn)
		}
	}
	if badRefs > 0 {
		doc.Warn(-1, "%d tensor references point past the %d tensors and were dropped, e.g. %s", badRefs, nt, firstBad)
	}
	if multi > 0 {
		doc.Warn(-1, "%d tensors have more than one producer (the first is kept), e.g. %s", multi, firstMulti)
	}
	g.Inputs = b.nodeList(m.Inputs, "input", b.idx.subgraph+12)
	g.Outputs = b.nodeList(m.Outputs, "output", b.idx.subgraph+16)
	doc.Graph = g
}

const (
	opConst       = 4
	opConvolution = 5
	opInput       = 12
)

// convInChannels takes a convolution's input channels from its weight
// ([out, in/groups, kh, kw]) as Tengine itself does (NOTES §tmfile): writers
// often leave input_channel at 0 or 1.
func (b *docBuilder) convInChannels(n *formats.Node) {
	if len(n.Inputs) < 2 {
		return
	}
	if w := b.doc.Tensors[n.Inputs[1]].Shape; len(w) == 4 && w[1] > 0 {
		n.Meaning.InChannels = w[1] * max(n.Meaning.Groups, 1)
	}
}

// reserved lists the node's format-level facts: the op version, dynamic
// shape, a node id that differs from its index, and TM2_Attr pairs.
// The lists of all nodes share the backing array *all.
func (b *docBuilder) reserved(i int, n *Node, all *[]formats.Attr) []formats.Attr {
	out := *all
	start := len(out)
	out = append(out, formats.Attr{Name: "op_ver", Value: int64(n.Op.Version)})
	if n.DynamicShape {
		out = append(out, formats.Attr{Name: "dynamic_shape", Value: true})
	}
	if n.ID != uint32(i) {
		out = append(out, formats.Attr{Name: "node_id", Value: int64(n.ID)})
	}
	for _, a := range n.Attrs {
		out = append(out, formats.Attr{Name: a.Name, Value: a.Value})
	}
	*all = out
	return out[start:len(out):len(out)]
}

func (b *docBuilder) nodeList(list []uint32, what string, at int64) []int {
	out := make([]int, 0, len(list))
	for _, n := range list {
		if int64(n) >= int64(len(b.m.Nodes)) {
			b.doc.Warn(at, "graph %s node index %d is past the %d nodes; dropped", what, n, len(b.m.Nodes))
			continue
		}
		out = append(out, int(n))
	}
	return out
}
