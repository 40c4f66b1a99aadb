package tsm

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Builder assembles a module node by node, for tests, fixtures and demos.
// Node indices are returned as nodes are added; SetInputs lets a node name
// later nodes, as real files do.
type Builder struct {
	m Module
}

// NewBuilder starts an empty module with the V1 header code.
func NewBuilder() *Builder {
	return &Builder{m: Module{Code: Magic}}
}

// SetUserData fills the header's user-defined bytes (at most 120).
func (b *Builder) SetUserData(data []byte) {
	b.m.User = [UserDataSize]byte{}
	copy(b.m.User[:], data)
}

// Node adds a node with #op and #name first, then params, and returns its index.
func (b *Builder) Node(op, name string, inputs []int, params ...Param) int {
	all := make([]Param, 0, len(params)+2)
	all = append(all, P(ParamOp, String(op)), P(ParamName, String(name)))
	all = append(all, params...)
	b.m.Nodes = append(b.m.Nodes, Node{Params: all, Inputs: append([]int(nil), inputs...)})
	return len(b.m.Nodes) - 1
}

// Input adds a <param> node declaring shape and dtype, and makes it a
// module input.
func (b *Builder) Input(name string, dtype DType, shape ...int) int {
	s := make([]int32, len(shape))
	for i, d := range shape {
		s[i] = int32(d)
	}
	i := b.Node(OpParam, name, nil,
		P(ParamShape, Int32s(s, len(s))),
		P(ParamDType, Int32(int32(dtype))))
	b.m.Inputs = append(b.m.Inputs, i)
	return i
}

// Const adds a <const> node whose value has the given fields (one field
// for an ordinary weight, several for a packed constant).
func (b *Builder) Const(name string, fields ...Tensor) int {
	return b.Node(OpConst, name, nil, Param{Name: "value", Fields: fields})
}

// SetInputs replaces the inputs of node i.
func (b *Builder) SetInputs(i int, inputs ...int) {
	b.m.Nodes[i].Inputs = append([]int(nil), inputs...)
}

// Output makes nodes module outputs.
func (b *Builder) Output(nodes ...int) { b.m.Outputs = append(b.m.Outputs, nodes...) }

// Module returns the module built so far (later calls do not change it).
func (b *Builder) Module() *Module {
	m := b.m
	m.Inputs = append([]int(nil), m.Inputs...)
	m.Outputs = append([]int(nil), m.Outputs...)
	m.Nodes = append([]Node(nil), m.Nodes...)
	return &m
}

// P is a parameter with the given fields.
func P(name string, fields ...Tensor) Param { return Param{Name: name, Fields: fields} }

// String is a CHAR8 tensor of shape [len(s)], as TenniS stores text.
func String(s string) Tensor {
	return Tensor{DType: CHAR8, Shape: []int{len(s)}, Data: []byte(s)}
}

// Bool is a 0-dim BOOLEAN scalar.
func Bool(v bool) Tensor {
	b := byte(0)
	if v {
		b = 1
	}
	return Tensor{DType: BOOLEAN, Shape: []int{}, Data: []byte{b}}
}

// Int32 is a 0-dim INT32 scalar.
func Int32(v int32) Tensor { return Int32s([]int32{v}) }

// Float32 is a 0-dim FLOAT32 scalar.
func Float32(v float32) Tensor { return Float32s([]float32{v}) }

// Int32s is an INT32 tensor of shape (0-dim when shape is empty, so give
// len(v) for a vector). It panics when v does not fill the shape: that is
// a mistake in the calling code, not in any input.
func Int32s(v []int32, shape ...int) Tensor {
	data := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(x))
	}
	return mustTensor(INT32, shape, data)
}

// Float32s is a FLOAT32 tensor of shape (0-dim when shape is empty); it
// panics like Int32s.
func Float32s(v []float32, shape ...int) Tensor {
	data := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(x))
	}
	return mustTensor(FLOAT32, shape, data)
}

// NewTensor is a field of any dtype over data, checked against the shape.
func NewTensor(dtype DType, shape []int, data []byte) (Tensor, error) {
	t := Tensor{DType: dtype, Shape: append([]int{}, shape...), Data: data}
	return t, checkField(&t)
}

func mustTensor(dtype DType, shape []int, data []byte) Tensor {
	t, err := NewTensor(dtype, shape, data)
	if err != nil {
		panic(fmt.Sprintf("tsm: %v", err))
	}
	return t
}
