package tmfile

import (
	"encoding/binary"
	"fmt"
	"math"

	"tensorscope/formats"
)

// Builder assembles a Model node by node, the way Tengine's converters
// order one: every node creates its output tensor, so tensor indices follow
// node order, and Const nodes own the buffers of their tensors. Errors are
// kept and reported by Model.
type Builder struct {
	m   Model
	err error
}

// NewBuilder starts an fp32 NCHW model converted from origFormat (1 is
// Tengine itself; see FormatName).
func NewBuilder(origFormat int32, name string) *Builder {
	return &Builder{m: Model{VerMain: 2, OrigFormat: origFormat, Name: name}}
}

// Input adds an InputOp node whose fp32 tensor is a graph input; it returns
// the tensor index.
func (b *Builder) Input(name string, dims []int32) int {
	op, err := NewOperator("InputOp")
	if err != nil {
		b.fail(err)
		return -1
	}
	t := b.node(name, op, nil, dims, TypeInput, DataFP32)
	if t >= 0 {
		b.m.Inputs = append(b.m.Inputs, uint32(len(b.m.Nodes)-1))
	}
	return t
}

// Const adds a Const node with an fp32 tensor. With data nil the buffer
// keeps its size but no data, as in Tengine's benchmark files.
func (b *Builder) Const(name string, dims []int32, data []float32) int {
	n := int64(1)
	for _, d := range dims {
		n *= int64(d)
	}
	if data != nil && int64(len(data)) != n {
		b.fail(fmt.Errorf("tmfile: const %q has dims %v but %d values", name, dims, len(data)))
		return -1
	}
	var raw []byte
	if data != nil {
		raw = make([]byte, 4*len(data))
		for i, v := range data {
			binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
		}
	}
	return b.ConstRaw(name, dims, DataFP32, uint32(4*n), raw, nil)
}

// ConstRaw adds a Const node whose tensor has any data type and, when
// quant is not empty, quantisation params. size is the buffer size; data
// is nil or exactly size bytes.
func (b *Builder) ConstRaw(name string, dims []int32, dataType int32, size uint32, data []byte, quant []QuantParam) int {
	if data != nil && int64(len(data)) != int64(size) {
		b.fail(fmt.Errorf("tmfile: const %q has %d bytes of data for a %d-byte buffer", name, len(data), size))
		return -1
	}
	op, err := NewOperator("Const")
	if err != nil {
		b.fail(err)
		return -1
	}
	t := b.node(name, op, nil, dims, TypeConst, dataType)
	if t < 0 {
		return t
	}
	b.m.Tensors[t].BufferID = uint32(len(b.m.Buffers))
	b.m.Tensors[t].Quant = quant
	b.m.Buffers = append(b.m.Buffers, Buffer{Size: size, Data: data})
	return t
}

// Op adds a node running the operator named op (as OpName spells it) with
// params attrs on the input tensors; its one fp32 output tensor, named like
// the node, has dims outDims. It returns the output tensor index.
func (b *Builder) Op(name, op string, attrs []formats.Attr, outDims []int32, inputs ...int) int {
	o, err := NewOperator(op, attrs...)
	if err != nil {
		b.fail(err)
		return -1
	}
	return b.node(name, o, inputs, outDims, TypeVar, DataFP32)
}

// Output marks the node that produces tensor t as a graph output.
func (b *Builder) Output(t int) {
	if t < 0 || t >= len(b.m.Tensors) {
		b.fail(fmt.Errorf("tmfile: output tensor %d does not exist", t))
		return
	}
	for i := range b.m.Nodes {
		for _, o := range b.m.Nodes[i].Outputs {
			if int(o) == t {
				b.m.Outputs = append(b.m.Outputs, uint32(i))
				return
			}
		}
	}
}

// Model returns the model built so far, or the first error.
func (b *Builder) Model() (*Model, error) {
	if b.err != nil {
		return nil, b.err
	}
	m := b.m
	return &m, nil
}

func (b *Builder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

func (b *Builder) node(name string, op Operator, inputs []int, dims []int32, typ, dataType int32) int {
	if b.err != nil {
		return -1
	}
	var in []uint32
	if len(inputs) > 0 {
		in = make([]uint32, len(inputs))
	}
	for i, t := range inputs {
		if t < 0 || t >= len(b.m.Tensors) {
			b.fail(fmt.Errorf("tmfile: node %q takes tensor %d, which does not exist", name, t))
			return -1
		}
		in[i] = uint32(t)
	}
	ti := len(b.m.Tensors)
	b.m.Nodes = append(b.m.Nodes, Node{
		ID: uint32(len(b.m.Nodes)), Name: name, Inputs: in, Outputs: []uint32{uint32(ti)}, Op: op,
	})
	b.m.Tensors = append(b.m.Tensors, Tensor{
		ID: uint32(ti), Name: name, Dims: append([]int32(nil), dims...), Type: typ, DataType: dataType,
		// Tengine's writer stores the index of the last buffer so far in
		// every tensor; only CONST tensors' buffer ids mean anything.
		BufferID: uint32(len(b.m.Buffers) - 1),
	})
	return ti
}
