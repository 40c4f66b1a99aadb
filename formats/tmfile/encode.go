package tmfile

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// Encode writes m as a tmfile laid out the way Tengine's own writer
// (tools/save_graph) lays files out: the header, the model name, then per
// node its name, input and output index vectors, the vectors its params
// point to, the param struct and right after it the TM2_Operator (so that
// readers can measure the param size), and the TM2_Node; the node vector;
// per tensor its name, dims, quant params and TM2_Tensor; the tensor vector;
// per buffer its data and TM2_Buffer; the buffer vector; the graph input and
// output vectors; the subgraph; the subgraph vector; and last the root
// table. Objects are 4-byte aligned, names and buffer data are not.
//
// Padding bytes are written as zeros. When m has SubInfo, the subgraph
// vector lists the one subgraph twice (or once per partition): Tengine reads
// sub-graph info only from files whose subgraph vector has more than one
// entry, and reads only the first subgraph.
func Encode(w io.Writer, m *Model) error {
	b, err := Marshal(m)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Marshal returns the bytes Encode writes.
func Marshal(m *Model) ([]byte, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	e := &encoder{buf: make([]byte, headerSize, m.sizeHint())}
	sName := e.str(m.Name)
	nodes := make([]uint32, len(m.Nodes))
	for i := range m.Nodes {
		nodes[i] = e.node(&m.Nodes[i])
	}
	vNodes := e.u32Vector(nodes)
	tensors := make([]uint32, len(m.Tensors))
	for i := range m.Tensors {
		tensors[i] = e.tensor(&m.Tensors[i])
	}
	vTensors := e.u32Vector(tensors)
	buffers := make([]uint32, len(m.Buffers))
	for i := range m.Buffers {
		buffers[i] = e.buffer(&m.Buffers[i])
	}
	vBuffers := e.u32Vector(buffers)
	vIn := e.u32Vector(m.Inputs)
	vOut := e.u32Vector(m.Outputs)
	var vSubInfo uint32
	if len(m.SubInfo) > 0 {
		infos := make([]uint32, len(m.SubInfo))
		for i := range m.SubInfo {
			infos[i] = e.subInfo(&m.SubInfo[i])
		}
		vSubInfo = e.u32Vector(infos)
	}
	sg := e.object(
		m.SubgraphID, uint32(m.GraphLayout), uint32(m.ModelLayout), vIn, vOut,
		vNodes, vTensors, vBuffers, e.str(m.SubgraphName), vSubInfo)
	subgraphs := []uint32{sg}
	if len(m.SubInfo) > 0 {
		subgraphs = []uint32{sg, sg}
		for len(subgraphs) < len(m.SubInfo) {
			subgraphs = append(subgraphs, sg)
		}
	}
	vSub := e.u32Vector(subgraphs)
	root := e.object(uint32(m.OrigFormat), uint32(m.SubFormat), vSub, sName)
	if e.err != nil {
		return nil, e.err
	}
	h := e.buf[:headerSize]
	binary.LittleEndian.PutUint16(h[0:], m.VerMain)
	binary.LittleEndian.PutUint16(h[2:], m.VerSub)
	binary.LittleEndian.PutUint16(h[4:], m.VerCompile)
	binary.LittleEndian.PutUint32(h[8:], root)
	return e.buf, nil
}

// check refuses models that would make an invalid file.
func (m *Model) check() error {
	if m.VerMain != 2 {
		return fmt.Errorf("tmfile: ver_main is %d; only TM2 (2) files can be written", m.VerMain)
	}
	for i := range m.Nodes {
		n := &m.Nodes[i]
		for _, t := range append(n.Inputs[:len(n.Inputs):len(n.Inputs)], n.Outputs...) {
			if int64(t) >= int64(len(m.Tensors)) {
				return fmt.Errorf("tmfile: node %d (%q) refers to tensor %d; the model has %d", i, n.Name, t, len(m.Tensors))
			}
		}
		for _, ref := range n.Op.Refs {
			if ref.At < 0 || ref.At%4 != 0 || ref.At+4 > len(n.Op.Param) {
				return fmt.Errorf("tmfile: node %d (%q): param reference at byte %d is outside its %d-byte param", i, n.Name, ref.At, len(n.Op.Param))
			}
			if ref.Kind == RefAnchors && len(ref.Floats)%4 != 0 {
				return fmt.Errorf("tmfile: node %d (%q): anchors need 4 floats each, got %d", i, n.Name, len(ref.Floats))
			}
		}
	}
	for _, list := range [][]uint32{m.Inputs, m.Outputs} {
		for _, n := range list {
			if int64(n) >= int64(len(m.Nodes)) {
				return fmt.Errorf("tmfile: graph input/output node %d; the model has %d nodes", n, len(m.Nodes))
			}
		}
	}
	for i := range m.Tensors {
		t := &m.Tensors[i]
		if t.Type == TypeConst && int64(t.BufferID) >= int64(len(m.Buffers)) {
			return fmt.Errorf("tmfile: CONST tensor %d (%q) refers to buffer %d; the model has %d", i, t.Name, t.BufferID, len(m.Buffers))
		}
	}
	for i := range m.Buffers {
		b := &m.Buffers[i]
		if b.Data != nil && int64(len(b.Data)) != int64(b.Size) {
			return fmt.Errorf("tmfile: buffer %d holds %d bytes but its size says %d", i, len(b.Data), b.Size)
		}
	}
	return nil
}

// sizeHint estimates the file size so the output is allocated once.
func (m *Model) sizeHint() int {
	n := 256 + 64*len(m.Nodes) + 96*len(m.Tensors) + 16*len(m.Buffers)
	for i := range m.Buffers {
		n += len(m.Buffers[i].Data) + 3
	}
	return n
}

type encoder struct {
	buf []byte
	tmp []byte
	err error
}

func (e *encoder) pos() uint32 {
	if len(e.buf) > math.MaxUint32 && e.err == nil {
		e.err = fmt.Errorf("tmfile: the model needs more than 4 GiB, beyond what 32-bit offsets address")
	}
	return uint32(len(e.buf))
}

func (e *encoder) align4() {
	for len(e.buf)%4 != 0 {
		e.buf = append(e.buf, 0)
	}
}

// raw writes bytes unaligned, as Tengine writes names and buffer data.
func (e *encoder) raw(b []byte) uint32 {
	at := e.pos()
	e.buf = append(e.buf, b...)
	return at
}

// bytes writes a 4-byte aligned object.
func (e *encoder) bytes(b []byte) uint32 {
	e.align4()
	return e.raw(b)
}

// object writes a 4-byte aligned struct of 32-bit fields.
func (e *encoder) object(fields ...uint32) uint32 {
	e.align4()
	at := e.pos()
	for _, f := range fields {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, f)
	}
	return at
}

// str writes a TM2_String with its trailing NUL; "" is absent (offset 0).
func (e *encoder) str(s string) uint32 {
	if s == "" {
		return 0
	}
	at := e.pos()
	e.buf = append(e.buf, s...)
	e.buf = append(e.buf, 0)
	return e.object(uint32(len(s)+1), at)
}

// u32Vector writes a vector of 32-bit values; empty vectors are absent.
func (e *encoder) u32Vector(v []uint32) uint32 {
	if len(v) == 0 {
		return 0
	}
	e.align4()
	at := e.pos()
	e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(len(v)))
	for _, x := range v {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, x)
	}
	return at
}

// i32Vector writes a TM2_Vector_dims; nil is absent, an empty slice is an
// empty vector (a scalar's dims).
func (e *encoder) i32Vector(v []int32) uint32 {
	if v == nil {
		return 0
	}
	e.align4()
	at := e.pos()
	e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(len(v)))
	for _, x := range v {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(x))
	}
	return at
}

func (e *encoder) f32Vector(v []float32, per int) uint32 {
	e.align4()
	at := e.pos()
	e.buf = binary.LittleEndian.AppendUint32(e.buf, uint32(len(v)/per))
	for _, x := range v {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, math.Float32bits(x))
	}
	return at
}

func (e *encoder) node(n *Node) uint32 {
	sName := e.str(n.Name)
	vIn := e.u32Vector(n.Inputs)
	vOut := e.u32Vector(n.Outputs)
	tOp := e.operator(&n.Op)
	var vAttrs uint32
	if len(n.Attrs) > 0 {
		attrs := make([]uint32, len(n.Attrs))
		for i, a := range n.Attrs {
			attrs[i] = e.object(e.str(a.Name), e.str(a.Value), uint32(a.Type))
		}
		vAttrs = e.u32Vector(attrs)
	}
	var dyn uint32
	if n.DynamicShape {
		dyn = 1
	}
	return e.object(n.ID, vIn, vOut, tOp, sName, vAttrs, dyn)
}

// operator writes the objects the param's offset fields point to, the
// param struct with those offsets patched in, and the TM2_Operator right
// after it.
func (e *encoder) operator(op *Operator) uint32 {
	var tParam uint32
	if len(op.Param) > 0 {
		e.tmp = append(e.tmp[:0], op.Param...)
		if info := lookupOp(op.Type); info != nil {
			// Offset fields with nothing to point to must not keep the
			// source file's stale offsets.
			for _, f := range info.Fields {
				if f.Type == fieldOffset && f.At+4 <= len(e.tmp) {
					binary.LittleEndian.PutUint32(e.tmp[f.At:], 0)
				}
			}
		}
		for i := range op.Refs {
			ref := &op.Refs[i]
			var at uint32
			switch ref.Kind {
			case RefString:
				at = e.str(ref.Str)
			case RefDims:
				ints := ref.Ints
				if ints == nil {
					ints = []int32{} // a reference is never absent: write an empty vector
				}
				at = e.i32Vector(ints)
			case RefFloats:
				at = e.f32Vector(ref.Floats, 1)
			case RefAnchors:
				at = e.f32Vector(ref.Floats, 4)
			}
			binary.LittleEndian.PutUint32(e.tmp[ref.At:], at)
		}
		tParam = e.bytes(e.tmp)
	}
	return e.object(op.Version, op.Type, tParam)
}

func (e *encoder) tensor(t *Tensor) uint32 {
	sName := e.str(t.Name)
	vDims := e.i32Vector(t.Dims)
	var vQuant uint32
	if len(t.Quant) > 0 {
		qs := make([]uint32, len(t.Quant))
		for i, q := range t.Quant {
			qs[i] = e.object(uint32(q.ZeroPoint), math.Float32bits(q.Scale), uint32(q.Width))
		}
		vQuant = e.u32Vector(qs)
	}
	return e.object(t.ID, t.BufferID, vDims, sName, vQuant,
		uint32(t.Layout), uint32(t.Type), uint32(t.DataType))
}

func (e *encoder) buffer(b *Buffer) uint32 {
	var data uint32
	if b.Data != nil {
		data = e.raw(b.Data)
	}
	return e.object(b.Size, data)
}

func (e *encoder) subInfo(s *SubInfo) uint32 {
	vNodes := e.u32Vector(s.Nodes)
	vIn := e.u32Vector(s.InputTensors)
	vOut := e.u32Vector(s.OutputTensors)
	sDev := e.str(s.Device)
	return e.object(s.ID, s.InputWaitCount, uint32(s.DataType), vNodes, vIn, vOut, sDev)
}
