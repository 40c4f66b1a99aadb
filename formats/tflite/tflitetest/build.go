// Package tflitetest writes small TFLite models for tests, benchmarks and
// the generator of large models, with the accessors flatc generated.
package tflitetest

import (
	flatbuffers "github.com/google/flatbuffers/go"

	"tensorscope/formats/tflite/internal/tfl"
)

// Tensor types used by tests (TensorType values).
const (
	Float32 = int8(tfl.TensorTypeFLOAT32)
	Int32   = int8(tfl.TensorTypeINT32)
	Int8    = int8(tfl.TensorTypeINT8)
	String  = int8(tfl.TensorTypeSTRING)
)

// Builtin operator codes used by tests.
const (
	Add      = int32(tfl.BuiltinOperatorADD)
	Conv2D   = int32(tfl.BuiltinOperatorCONV_2D)
	While    = int32(tfl.BuiltinOperatorWHILE)
	If       = int32(tfl.BuiltinOperatorIF)
	CallOnce = int32(tfl.BuiltinOperatorCALL_ONCE)
	Relu     = int32(tfl.BuiltinOperatorRELU)
)

type Tensor struct {
	Name       string
	Type       int8
	Shape      []int32
	Buffer     uint32
	Scales     []float32
	ZeroPoints []int64
	QuantDim   int32
}

// Op is an operator; Code indexes Model.Codes. Subgraphs holds the
// subgraph indices of WHILE (cond, body), IF (then, else) or CALL_ONCE
// (init); Stride sets CONV_2D's strides.
type Op struct {
	Code      uint32
	Inputs    []int32
	Outputs   []int32
	Subgraphs []int32
	Stride    [2]int32
}

type Subgraph struct {
	Name    string
	Tensors []Tensor
	Inputs  []int32
	Outputs []int32
	Ops     []Op
}

// Model is a whole file; Buffers[0] should be empty, as the schema says.
type Model struct {
	Codes     []int32 // builtin operator codes
	Subgraphs []Subgraph
	Buffers   [][]byte
	// Large puts the buffers after the flatbuffer, found by their offset
	// and size fields, as converters write models over 2 GB.
	Large bool
}

func ints(b *flatbuffers.Builder, start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, v []int32) flatbuffers.UOffsetT {
	start(b, len(v))
	for j := len(v) - 1; j >= 0; j-- {
		b.PrependInt32(v[j])
	}
	return b.EndVector(len(v))
}

func offsets(b *flatbuffers.Builder, start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, v []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	start(b, len(v))
	for j := len(v) - 1; j >= 0; j-- {
		b.PrependUOffsetT(v[j])
	}
	return b.EndVector(len(v))
}

// Bytes serialises the model with the file identifier TFL3.
func (m *Model) Bytes() []byte {
	if !m.Large {
		return m.build(nil)
	}
	// The offsets are 8-byte fields: the flatbuffer's size does not depend
	// on their values, so a first build with placeholders gives it.
	at := make([]uint64, len(m.Buffers))
	for i := range at {
		at[i] = 2
	}
	fb := m.build(at)
	end := uint64(len(fb)+15) &^ 15
	for i, data := range m.Buffers {
		at[i] = end
		end = (end + uint64(len(data)) + 15) &^ 15
	}
	out := append([]byte(nil), m.build(at)...)
	for i, data := range m.Buffers {
		for uint64(len(out)) < at[i] {
			out = append(out, 0)
		}
		out = append(out, data...)
	}
	return out
}

func (m *Model) build(large []uint64) []byte {
	b := flatbuffers.NewBuilder(1024)
	var bufs []flatbuffers.UOffsetT
	for i, data := range m.Buffers {
		if large != nil {
			tfl.BufferStart(b)
			if len(data) > 0 {
				tfl.BufferAddOffset(b, large[i])
				tfl.BufferAddSize(b, uint64(len(data)))
			}
			bufs = append(bufs, tfl.BufferEnd(b))
			continue
		}
		var v flatbuffers.UOffsetT
		if len(data) > 0 {
			v = createBytes(b, data)
		}
		tfl.BufferStart(b)
		if len(data) > 0 {
			tfl.BufferAddData(b, v)
		}
		bufs = append(bufs, tfl.BufferEnd(b))
	}
	var sgs []flatbuffers.UOffsetT
	for _, sg := range m.Subgraphs {
		var tensors, ops []flatbuffers.UOffsetT
		for _, t := range sg.Tensors {
			name := b.CreateString(t.Name)
			shape := ints(b, tfl.TensorStartShapeVector, t.Shape)
			var q flatbuffers.UOffsetT
			if len(t.Scales) > 0 {
				tfl.QuantizationParametersStartScaleVector(b, len(t.Scales))
				for j := len(t.Scales) - 1; j >= 0; j-- {
					b.PrependFloat32(t.Scales[j])
				}
				sc := b.EndVector(len(t.Scales))
				tfl.QuantizationParametersStartZeroPointVector(b, len(t.ZeroPoints))
				for j := len(t.ZeroPoints) - 1; j >= 0; j-- {
					b.PrependInt64(t.ZeroPoints[j])
				}
				zp := b.EndVector(len(t.ZeroPoints))
				tfl.QuantizationParametersStart(b)
				tfl.QuantizationParametersAddScale(b, sc)
				tfl.QuantizationParametersAddZeroPoint(b, zp)
				tfl.QuantizationParametersAddQuantizedDimension(b, t.QuantDim)
				q = tfl.QuantizationParametersEnd(b)
			}
			tfl.TensorStart(b)
			tfl.TensorAddName(b, name)
			tfl.TensorAddShape(b, shape)
			tfl.TensorAddType(b, tfl.TensorType(t.Type))
			tfl.TensorAddBuffer(b, t.Buffer)
			if q != 0 {
				tfl.TensorAddQuantization(b, q)
			}
			tensors = append(tensors, tfl.TensorEnd(b))
		}
		for _, op := range sg.Ops {
			in := ints(b, tfl.OperatorStartInputsVector, op.Inputs)
			out := ints(b, tfl.OperatorStartOutputsVector, op.Outputs)
			var opt flatbuffers.UOffsetT
			var optType tfl.BuiltinOptions
			code := int32(0)
			if int(op.Code) < len(m.Codes) {
				code = m.Codes[op.Code]
			}
			switch {
			case code == While && len(op.Subgraphs) == 2:
				tfl.WhileOptionsStart(b)
				tfl.WhileOptionsAddCondSubgraphIndex(b, op.Subgraphs[0])
				tfl.WhileOptionsAddBodySubgraphIndex(b, op.Subgraphs[1])
				opt, optType = tfl.WhileOptionsEnd(b), tfl.BuiltinOptionsWhileOptions
			case code == If && len(op.Subgraphs) == 2:
				tfl.IfOptionsStart(b)
				tfl.IfOptionsAddThenSubgraphIndex(b, op.Subgraphs[0])
				tfl.IfOptionsAddElseSubgraphIndex(b, op.Subgraphs[1])
				opt, optType = tfl.IfOptionsEnd(b), tfl.BuiltinOptionsIfOptions
			case code == CallOnce && len(op.Subgraphs) == 1:
				tfl.CallOnceOptionsStart(b)
				tfl.CallOnceOptionsAddInitSubgraphIndex(b, op.Subgraphs[0])
				opt, optType = tfl.CallOnceOptionsEnd(b), tfl.BuiltinOptionsCallOnceOptions
			case code == Conv2D:
				tfl.Conv2DOptionsStart(b)
				tfl.Conv2DOptionsAddStrideH(b, op.Stride[0])
				tfl.Conv2DOptionsAddStrideW(b, op.Stride[1])
				tfl.Conv2DOptionsAddFusedActivationFunction(b, tfl.ActivationFunctionTypeRELU6)
				opt, optType = tfl.Conv2DOptionsEnd(b), tfl.BuiltinOptionsConv2DOptions
			}
			tfl.OperatorStart(b)
			tfl.OperatorAddOpcodeIndex(b, op.Code)
			tfl.OperatorAddInputs(b, in)
			tfl.OperatorAddOutputs(b, out)
			if opt != 0 {
				tfl.OperatorAddBuiltinOptionsType(b, optType)
				tfl.OperatorAddBuiltinOptions(b, opt)
			}
			ops = append(ops, tfl.OperatorEnd(b))
		}
		tv := offsets(b, tfl.SubGraphStartTensorsVector, tensors)
		ov := offsets(b, tfl.SubGraphStartOperatorsVector, ops)
		iv := ints(b, tfl.SubGraphStartInputsVector, sg.Inputs)
		outv := ints(b, tfl.SubGraphStartOutputsVector, sg.Outputs)
		name := b.CreateString(sg.Name)
		tfl.SubGraphStart(b)
		tfl.SubGraphAddTensors(b, tv)
		tfl.SubGraphAddOperators(b, ov)
		tfl.SubGraphAddInputs(b, iv)
		tfl.SubGraphAddOutputs(b, outv)
		tfl.SubGraphAddName(b, name)
		sgs = append(sgs, tfl.SubGraphEnd(b))
	}
	var codes []flatbuffers.UOffsetT
	for _, c := range m.Codes {
		tfl.OperatorCodeStart(b)
		tfl.OperatorCodeAddDeprecatedBuiltinCode(b, int8(min(c, 127)))
		tfl.OperatorCodeAddBuiltinCode(b, tfl.BuiltinOperator(c))
		tfl.OperatorCodeAddVersion(b, 1)
		codes = append(codes, tfl.OperatorCodeEnd(b))
	}
	cv := offsets(b, tfl.ModelStartOperatorCodesVector, codes)
	sv := offsets(b, tfl.ModelStartSubgraphsVector, sgs)
	bv := offsets(b, tfl.ModelStartBuffersVector, bufs)
	desc := b.CreateString("written by tflitetest")
	tfl.ModelStart(b)
	tfl.ModelAddVersion(b, 3)
	tfl.ModelAddOperatorCodes(b, cv)
	tfl.ModelAddSubgraphs(b, sv)
	tfl.ModelAddBuffers(b, bv)
	tfl.ModelAddDescription(b, desc)
	b.FinishWithFileIdentifier(tfl.ModelEnd(b), []byte("TFL3"))
	return b.FinishedBytes()
}

// Chain is a model of n operators in a line, alternating CONV_2D (with
// an 8×3×3×8 float weight) and RELU: the generated model of the
// benchmarks.
func Chain(n int) *Model {
	m := &Model{Codes: []int32{Conv2D, Relu}, Buffers: [][]byte{nil, make([]byte, 8*3*3*8*4)}}
	sg := Subgraph{Name: "main", Inputs: []int32{0}}
	sg.Tensors = append(sg.Tensors, Tensor{Name: "input", Type: Float32, Shape: []int32{1, 32, 32, 8}},
		Tensor{Name: "weight", Type: Float32, Shape: []int32{8, 3, 3, 8}, Buffer: 1})
	prev := int32(0)
	for i := 0; i < n; i++ {
		out := int32(len(sg.Tensors))
		sg.Tensors = append(sg.Tensors, Tensor{Name: "t" + itoa(i), Type: Float32, Shape: []int32{1, 32, 32, 8}})
		if i%2 == 0 {
			sg.Ops = append(sg.Ops, Op{Code: 0, Inputs: []int32{prev, 1, -1}, Outputs: []int32{out}, Stride: [2]int32{1, 1}})
		} else {
			sg.Ops = append(sg.Ops, Op{Code: 1, Inputs: []int32{prev}, Outputs: []int32{out}})
		}
		prev = out
	}
	sg.Outputs = []int32{prev}
	m.Subgraphs = []Subgraph{sg}
	return m
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	k := len(b)
	for i > 0 {
		k--
		b[k] = byte('0' + i%10)
		i /= 10
	}
	return string(b[k:])
}

// Heavy is a model of CONV_2D operators whose float weights, 4 MiB each
// and stored inline in the flatbuffer, add up to mib MiB.
func Heavy(mib int) *Model {
	const per = 4 << 20
	n := max(1, mib/4)
	m := &Model{Codes: []int32{Conv2D}, Buffers: [][]byte{nil}}
	sg := Subgraph{Name: "main", Inputs: []int32{0}}
	sg.Tensors = append(sg.Tensors, Tensor{Name: "input", Type: Float32, Shape: []int32{1, 16, 16, 512}})
	weight := make([]byte, per)
	prev := int32(0)
	for i := 0; i < n; i++ {
		m.Buffers = append(m.Buffers, weight)
		w := int32(len(sg.Tensors))
		sg.Tensors = append(sg.Tensors, Tensor{Name: "w" + itoa(i), Type: Float32, Shape: []int32{512, 1, 4, 512}, Buffer: uint32(len(m.Buffers) - 1)},
			Tensor{Name: "t" + itoa(i), Type: Float32, Shape: []int32{1, 16, 16, 512}})
		sg.Ops = append(sg.Ops, Op{Code: 0, Inputs: []int32{prev, w, -1}, Outputs: []int32{w + 1}, Stride: [2]int32{1, 1}})
		prev = w + 1
	}
	sg.Outputs = []int32{prev}
	m.Subgraphs = []Subgraph{sg}
	return m
}

// createBytes is CreateByteVector with the 16-byte alignment Buffer.data
// asks for.
func createBytes(b *flatbuffers.Builder, data []byte) flatbuffers.UOffsetT {
	b.Prep(16, len(data))
	return b.CreateByteVector(data)
}
