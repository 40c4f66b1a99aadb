package tmfile

import (
	"encoding/binary"
	"fmt"
)

func (p *parser) nodes(vNodes uint32, from int64) {
	offs := p.offsets(vNodes, from, nodeSize+operatorSize, "node vector")
	if !p.ok() {
		return
	}
	p.m.Nodes = make([]Node, len(offs))
	p.expectNames(len(offs))
	padded, firstPad := 0, int64(-1)
	for i, off := range offs {
		at := int64(vNodes) + 4 + 4*int64(i)
		if !p.seek(off, nodeSize, at, "node %d", i) {
			return
		}
		if p.node(i, int64(off)) {
			padded++
			if firstPad < 0 {
				firstPad = int64(off) + 25
			}
		}
		if !p.ok() {
			return
		}
	}
	if padded > 0 {
		p.warn(firstPad, "%d of %d nodes have nonzero padding bytes after dynamic_shape: junk the writer left in TM2_Node; ignored",
			padded, len(offs))
	}
}

// node reads the TM2_Node at base (the reader is there) and reports whether
// its padding bytes are junk.
func (p *parser) node(i int, base int64) (junkPad bool) {
	r := p.r
	n := &p.m.Nodes[i]
	n.ID = r.U32("node_id")
	vIn := r.U32("offset_vi_input_tensors")
	vOut := r.U32("offset_vi_output_tensors")
	tOp := r.U32("offset_t_operator")
	sName := r.U32("offset_s_nname")
	vAttrs := r.U32("offset_vo_attrs")
	pad := r.Bytes(4, "dynamic_shape")
	if !p.ok() {
		return false
	}
	n.DynamicShape = pad[0] != 0
	junkPad = pad[1]|pad[2]|pad[3] != 0
	p.name(&n.Name, sName, base+16, "node name")
	n.Inputs = p.u32s(vIn, base+4, "node input tensor indices")
	n.Outputs = p.u32s(vOut, base+8, "node output tensor indices")
	if tOp == 0 {
		r.Failf(base+12, "node %d (%q) has no operator (offset_t_operator is 0)", i, p.nameOf(&n.Name))
		return
	}
	p.operator(i, n, tOp, base+12)
	if vAttrs != 0 {
		p.nodeAttrs(n, vAttrs, base+20)
	}
	return junkPad
}

func (p *parser) operator(i int, n *Node, tOp uint32, from int64) {
	r := p.r
	if !p.seek(tOp, operatorSize, from, "operator of node %d", i) {
		return
	}
	n.Op.Version = r.U32("op_ver")
	n.Op.Type = r.U32("operator_type")
	tParam := r.U32("offset_t_param")
	if !p.ok() || tParam == 0 {
		return
	}
	info := lookupOp(n.Op.Type)
	if info == nil {
		p.warn(int64(tOp)+4, "node %d (%q) has operator type %d, which op-params.tsv does not define", i, p.nameOf(&n.Name), n.Op.Type)
	}
	// Writers place the param struct right before its TM2_Operator, so the
	// distance between the two is the size this file's generation of the
	// struct has (Eltwise 8 or 20 bytes, Reshape 12 or 16, ...).
	size := int64(tOp) - int64(tParam)
	if size <= 0 || size > maxParamSize {
		size = 0
		if info != nil {
			size = int64(info.Size)
		}
		p.warn(int64(tOp)+8, "node %d (%q): the param struct at %d is not right before its operator at %d; reading %d bytes, the newest %s layout",
			i, p.nameOf(&n.Name), tParam, tOp, size, OpName(n.Op.Type))
	}
	if size == 0 {
		return
	}
	if !p.seek(tParam, size, int64(tOp)+8, "param struct of node %d", i) || !p.charge(size, int64(tParam), "param struct") {
		return
	}
	n.Op.Param = r.Bytes(size, "param struct")
	if info == nil {
		return
	}
	for fi := range info.Fields {
		f := &info.Fields[fi]
		if f.Type != fieldOffset || f.At+4 > len(n.Op.Param) {
			continue
		}
		off := binary.LittleEndian.Uint32(n.Op.Param[f.At:])
		if off == 0 {
			continue
		}
		at := int64(tParam) + int64(f.At)
		what := fmt.Sprintf("node %d (%q) param %s", i, p.nameOf(&n.Name), f.Name)
		var ref ParamRef
		if p.optional(at, what, func() { ref = p.paramRef(f, off, at) }) {
			n.Op.Refs = append(n.Op.Refs, ref)
		}
	}
}

// paramRef reads the vector or string an offset field of a param points to.
func (p *parser) paramRef(f *paramField, off uint32, from int64) ParamRef {
	ref := ParamRef{At: f.At, Kind: f.Ref}
	switch f.Ref {
	case RefString:
		ref.Str = p.str(off, from, f.Name)
	case RefFloats:
		ref.Floats = p.f32s(off, from, 1, f.Name)
	case RefAnchors:
		ref.Floats = p.f32s(off, from, 4, f.Name)
	default:
		ref.Ints = p.i32s(off, from, f.Name)
		if ref.Ints == nil && p.ok() {
			ref.Ints = []int32{}
		}
	}
	if ref.Floats == nil && (f.Ref == RefFloats || f.Ref == RefAnchors) && p.ok() {
		ref.Floats = []float32{}
	}
	return ref
}

func (p *parser) nodeAttrs(n *Node, vAttrs uint32, from int64) {
	offs := p.offsets(vAttrs, from, attrSize, "node attribute vector")
	n.Attrs = make([]NodeAttr, 0, len(offs))
	for i, off := range offs {
		at := int64(vAttrs) + 4 + 4*int64(i)
		if !p.seek(off, attrSize, at, "node attribute %d", i) {
			return
		}
		sName := p.r.U32("offset_s_attrname")
		sVal := p.r.U32("offset_s_attrval")
		typ := p.r.I32("attr_type")
		a := NodeAttr{Type: typ}
		a.Name = p.str(sName, int64(off), "attribute name")
		a.Value = p.str(sVal, int64(off)+4, "attribute value")
		n.Attrs = append(n.Attrs, a)
	}
}

func (p *parser) tensors(vTensors uint32, from int64) {
	if !p.ok() {
		return
	}
	offs := p.offsets(vTensors, from, tensorSize, "tensor vector")
	if !p.ok() {
		return
	}
	r := p.r
	p.m.Tensors = make([]Tensor, len(offs))
	p.expectNames(len(offs))
	p.idx.tensorAt = make([]int64, len(offs))
	for i, off := range offs {
		at := int64(vTensors) + 4 + 4*int64(i)
		if !p.seek(off, tensorSize, at, "tensor %d", i) {
			return
		}
		base := int64(off)
		p.idx.tensorAt[i] = base
		t := &p.m.Tensors[i]
		t.ID = r.U32("tensor_id")
		t.BufferID = r.U32("buffer_id")
		vDims := r.U32("offset_vd_dims")
		sName := r.U32("offset_s_tname")
		vQuant := r.U32("offset_vo_quantparams")
		t.Layout = r.I32("layout")
		t.Type = r.I32("type")
		t.DataType = r.I32("data_type")
		p.name(&t.Name, sName, base+12, "tensor name")
		t.Dims = p.i32s(vDims, base+8, "tensor dims")
		if vDims != 0 && t.Dims == nil && p.ok() {
			t.Dims = []int32{}
		}
		if vQuant != 0 {
			p.quant(t, vQuant, base+16)
		}
		if !p.ok() {
			return
		}
	}
}

func (p *parser) quant(t *Tensor, vQuant uint32, from int64) {
	offs := p.offsets(vQuant, from, quantParamSize, "quant param vector")
	if len(offs) == 0 {
		return
	}
	t.Quant = make([]QuantParam, len(offs))
	for i, off := range offs {
		at := int64(vQuant) + 4 + 4*int64(i)
		if !p.seek(off, quantParamSize, at, "quant param %d", i) {
			return
		}
		q := &t.Quant[i]
		q.ZeroPoint = p.r.I32("zero_point")
		q.Scale = p.r.F32("scale")
		q.Width = p.r.I32("width")
	}
}

func (p *parser) buffers(vBuffers uint32, from int64) {
	if !p.ok() {
		return
	}
	offs := p.offsets(vBuffers, from, bufferSize, "buffer vector")
	if !p.ok() {
		return
	}
	r := p.r
	p.m.Buffers = make([]Buffer, len(offs))
	p.idx.bufferAt = make([]int64, len(offs))
	p.idx.dataAt = make([]int64, len(offs))
	for i, off := range offs {
		at := int64(vBuffers) + 4 + 4*int64(i)
		if !p.seek(off, bufferSize, at, "buffer %d", i) {
			return
		}
		p.idx.bufferAt[i] = int64(off)
		b := &p.m.Buffers[i]
		b.Size = r.U32("buffer size")
		data := r.U32("offset_data")
		p.idx.dataAt[i] = -1
		if data == 0 || b.Size == 0 {
			if data != 0 {
				b.Data = []byte{}
				p.idx.dataAt[i] = int64(data)
			}
			continue
		}
		if !p.seek(data, int64(b.Size), int64(off)+4, "data of buffer %d", i) {
			return
		}
		p.idx.dataAt[i] = int64(data)
		b.Data = r.Bytes(int64(b.Size), "buffer data")
	}
}
