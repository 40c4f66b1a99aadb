package onnx_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/onnx/onnxtest"
	"tensorscope/tensor"
)

// dtypeCase is one ONNX data type with two elements stored both ways
// (raw_data and the typed field onnx.proto assigns it) and the values they
// mean, computed by hand from the type's definition.
type dtypeCase struct {
	name     string
	dataType int64
	dtype    tensor.DType
	dims     []int64
	raw      []byte
	typed    onnxtest.Tensor // the typed-field spelling, without name and dims
	want     []float64
}

func le16(vs ...uint16) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

func le32(vs ...uint32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

func le64(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}

var nan = math.NaN()

var dtypeCases = []dtypeCase{
	{"FLOAT", 1, tensor.Float32, []int64{2}, onnxtest.Float32s(1.5, -2), onnxtest.Tensor{FloatData: []float32{1.5, -2}}, []float64{1.5, -2}},
	{"UINT8", 2, tensor.Uint8, []int64{2}, []byte{0, 255}, onnxtest.Tensor{Int32Data: []int32{0, 255}}, []float64{0, 255}},
	{"INT8", 3, tensor.Int8, []int64{2}, []byte{0x80, 0x7f}, onnxtest.Tensor{Int32Data: []int32{-128, 127}}, []float64{-128, 127}},
	{"UINT16", 4, tensor.Uint16, []int64{2}, le16(65535, 1), onnxtest.Tensor{Int32Data: []int32{65535, 1}}, []float64{65535, 1}},
	{"INT16", 5, tensor.Int16, []int64{2}, le16(0x8000, 5), onnxtest.Tensor{Int32Data: []int32{-32768, 5}}, []float64{-32768, 5}},
	{"INT32", 6, tensor.Int32, []int64{2}, le32(uint32(0xfffffff9), 1<<30), onnxtest.Tensor{Int32Data: []int32{-7, 1 << 30}}, []float64{-7, 1 << 30}},
	{"INT64", 7, tensor.Int64, []int64{2}, le64(math.MaxUint64, 1<<40), onnxtest.Tensor{Int64Data: []int64{-1, 1 << 40}}, []float64{-1, 1 << 40}},
	{"BOOL", 9, tensor.Bool, []int64{2}, []byte{1, 0}, onnxtest.Tensor{Int32Data: []int32{1, 0}}, []float64{1, 0}},
	// 0x3C00 = 1.0 and 0xC000 = -2.0 in IEEE half precision.
	{"FLOAT16", 10, tensor.Float16, []int64{2}, le16(0x3C00, 0xC000), onnxtest.Tensor{Int32Data: []int32{0x3C00, 0xC000}}, []float64{1, -2}},
	{"DOUBLE", 11, tensor.Float64, []int64{2}, le64(math.Float64bits(0.1), math.Float64bits(-3)), onnxtest.Tensor{DoubleData: []float64{0.1, -3}}, []float64{0.1, -3}},
	{"UINT32", 12, tensor.Uint32, []int64{2}, le32(math.MaxUint32, 3), onnxtest.Tensor{Uint64Data: []uint64{math.MaxUint32, 3}}, []float64{math.MaxUint32, 3}},
	{"UINT64", 13, tensor.Uint64, []int64{2}, le64(1<<63, 2), onnxtest.Tensor{Uint64Data: []uint64{1 << 63, 2}}, []float64{1 << 63, 2}},
	// 0x3F80 = 1.0 and 0xC040 = -3.0: the top halves of the float32s.
	{"BFLOAT16", 16, tensor.BFloat16, []int64{2}, le16(0x3F80, 0xC040), onnxtest.Tensor{Int32Data: []int32{0x3F80, 0xC040}}, []float64{1, -3}},
	// E4M3FN, bias 7: 0x38 = 0.0111.000 = 1.0; 0xC0 = 1.1000.000 = -2.0; 0x7F is NaN.
	{"FLOAT8E4M3FN", 17, tensor.Float8E4M3FN, []int64{3}, []byte{0x38, 0xC0, 0x7F}, onnxtest.Tensor{Int32Data: []int32{0x38, 0xC0, 0x7F}}, []float64{1, -2, nan}},
	// E4M3FNUZ, bias 8: 0x40 = 0.1000.000 = 1.0; 0x80 is NaN.
	{"FLOAT8E4M3FNUZ", 18, tensor.Float8E4M3FNUZ, []int64{2}, []byte{0x40, 0x80}, onnxtest.Tensor{Int32Data: []int32{0x40, 0x80}}, []float64{1, nan}},
	// E5M2, bias 15: 0x3C = 0.01111.00 = 1.0; 0x7C = +Inf.
	{"FLOAT8E5M2", 19, tensor.Float8E5M2, []int64{2}, []byte{0x3C, 0x7C}, onnxtest.Tensor{Int32Data: []int32{0x3C, 0x7C}}, []float64{1, math.Inf(1)}},
	// E5M2FNUZ, bias 16: 0x40 = 0.10000.00 = 1.0; 0xC1 = -1.25.
	{"FLOAT8E5M2FNUZ", 20, tensor.Float8E5M2FNUZ, []int64{2}, []byte{0x40, 0xC1}, onnxtest.Tensor{Int32Data: []int32{0x40, 0xC1}}, []float64{1, -1.25}},
	// Packed types: the first element in the low bits. 0x21 → 1, 2.
	{"UINT4", 21, tensor.Uint4, []int64{3}, []byte{0x21, 0x0F}, onnxtest.Tensor{Int32Data: []int32{0x21, 0x0F}}, []float64{1, 2, 15}},
	// 0xF7 → 7, -1 (two's complement nibbles).
	{"INT4", 22, tensor.Int4, []int64{2}, []byte{0xF7}, onnxtest.Tensor{Int32Data: []int32{0xF7}}, []float64{7, -1}},
	// E2M1: 0x2 = 0.01.0 = 1.0; 0xA = -1.0; 0x7 = 0.11.1 = 6.0.
	{"FLOAT4E2M1", 23, tensor.Float4E2M1FN, []int64{3}, []byte{0xA2, 0x07}, onnxtest.Tensor{Int32Data: []int32{0xA2, 0x07}}, []float64{1, -1, 6}},
	// E8M0: 2^(e-127): 0x7F = 1, 0x80 = 2, 0xFF is NaN.
	{"FLOAT8E8M0", 24, tensor.Float8E8M0FNU, []int64{3}, []byte{0x7F, 0x80, 0xFF}, onnxtest.Tensor{Int32Data: []int32{0x7F, 0x80, 0xFF}}, []float64{1, 2, nan}},
	// 0xE4 = 11 10 01 00 → 0, 1, 2, 3 from the low bits up.
	{"UINT2", 25, tensor.Uint2, []int64{4}, []byte{0xE4}, onnxtest.Tensor{Int32Data: []int32{0xE4}}, []float64{0, 1, 2, 3}},
	{"INT2", 26, tensor.Int2, []int64{4}, []byte{0xE4}, onnxtest.Tensor{Int32Data: []int32{0xE4}}, []float64{0, 1, -2, -1}},
}

// TestEveryDataTypeRawAndTyped writes each data type with the project's
// writer, both as raw_data and in its typed field, and checks the dtype,
// the shape and the values against the hand-computed ones.
func TestEveryDataTypeRawAndTyped(t *testing.T) {
	for _, c := range dtypeCases {
		t.Run(c.name, func(t *testing.T) {
			typed := c.typed
			typed.Name, typed.DataType, typed.Dims = "typed", c.dataType, c.dims
			m := onnxtest.Model{IRVersion: 10, Graph: onnxtest.Graph{Initializers: []onnxtest.Tensor{
				{Name: "raw", DataType: c.dataType, Dims: c.dims, Raw: c.raw}, typed,
			}}}
			doc, err := decodeBytes(t, m.Marshal())
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Warnings) > 0 {
				t.Errorf("warnings: %v", doc.Warnings)
			}
			for _, name := range []string{"raw", "typed"} {
				e := doc.Tensor(name)
				if e.DType != c.dtype || fmt.Sprint(e.Shape) != fmt.Sprint(c.dims) {
					t.Errorf("%s: %s%v, want %s%v", name, e.DType, e.Shape, c.dtype, c.dims)
				}
				x, err := e.Load(context.Background())
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				got := make([]float64, x.Len())
				if err := x.ReadFloat64s(0, got); err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				for i := range c.want {
					if !sameFloat(got[i], c.want[i]) {
						t.Errorf("%s: values %v, want %v", name, got, c.want)
						break
					}
				}
			}
		})
	}
}

// TestComplexAndStringTensors checks the types ReadFloat64s does not
// cover: complex parts stay paired, strings read as text.
func TestComplexAndStringTensors(t *testing.T) {
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{Initializers: []onnxtest.Tensor{
		{Name: "c64", DataType: 14, Dims: []int64{2}, FloatData: []float32{1, 2, 3, 4}},
		{Name: "c128", DataType: 15, Dims: []int64{1}, Raw: le64(math.Float64bits(0.5), math.Float64bits(-1))},
		{Name: "words", DataType: 8, Dims: []int64{2}, StringData: []string{"monday", "tuesday"}},
	}}}
	doc, err := decodeBytes(t, m.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"c64": "[1 2 3 4]", "c128": "[0.5 -1]"} {
		x, err := doc.Tensor(name).Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(complexParts(t, x)); got != want {
			t.Errorf("%s: parts %s, want %s", name, got, want)
		}
	}
	words := doc.Tensor("words")
	if got := textValues(t, words); words.HasData() || words.TypeString() != "object" || fmt.Sprint(got) != "[monday tuesday]" {
		t.Errorf("string tensor: type %s, has data %v, text %q", words.TypeString(), words.HasData(), got)
	}
}

// textValues reads every element of e as text.
func textValues(t *testing.T, e *formats.TensorEntry) []string {
	t.Helper()
	n, err := tensor.NumElements(e.Shape)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, n)
	for i := range out {
		if out[i], err = e.TextAt(i); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestNewerDataTypesRoundTripThroughTheEncoders covers the types onnx 1.12
// cannot decode: values the type represents exactly are encoded with the
// tensor core's encoders, written as raw_data and in int32_data, and must
// read back unchanged.
func TestNewerDataTypesRoundTripThroughTheEncoders(t *testing.T) {
	exact := map[tensor.DType][]float32{
		tensor.Float8E4M3FN:   {0, 1, -2, 0.5, 448, -0.015625},
		tensor.Float8E4M3FNUZ: {0, 1, -2, 0.5, 240, -0.0078125},
		tensor.Float8E5M2:     {0, 1, -2, 0.25, 57344, 1.5},
		tensor.Float8E5M2FNUZ: {0, 1, -2, 0.25, 57344, 1.5},
		tensor.Float8E8M0FNU:  {1, 2, 0.5, 1024},
		tensor.Int4:           {-8, 7, 0, -1, 3},
		tensor.Uint4:          {0, 15, 7, 1, 9},
		tensor.Int2:           {-2, 1, 0, -1, 1},
		tensor.Uint2:          {0, 3, 2, 1, 3},
		tensor.Float4E2M1FN:   {0, 0.5, -1, 1.5, 6, -4, 3},
	}
	onnxType := map[tensor.DType]int64{
		tensor.Float8E4M3FN: 17, tensor.Float8E4M3FNUZ: 18, tensor.Float8E5M2: 19, tensor.Float8E5M2FNUZ: 20,
		tensor.Uint4: 21, tensor.Int4: 22, tensor.Float4E2M1FN: 23, tensor.Float8E8M0FNU: 24, tensor.Uint2: 25, tensor.Int2: 26,
	}
	for dt, vals := range exact {
		var raw []byte
		if dt.Packed() {
			var err error
			if raw, err = tensor.PackSubByte(dt, vals); err != nil {
				t.Fatal(err)
			}
		} else {
			for _, v := range vals {
				raw = append(raw, tensor.Float32ToNarrow(dt, v, true))
			}
		}
		words := make([]int32, len(raw))
		for i, b := range raw {
			words[i] = int32(b)
		}
		dims := []int64{int64(len(vals))}
		m := onnxtest.Model{IRVersion: 11, Graph: onnxtest.Graph{Initializers: []onnxtest.Tensor{
			{Name: "raw", DataType: onnxType[dt], Dims: dims, Raw: raw},
			{Name: "typed", DataType: onnxType[dt], Dims: dims, Int32Data: words},
		}}}
		doc, err := decodeBytes(t, m.Marshal())
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"raw", "typed"} {
			got := loadFloats(t, doc.Tensor(name))
			if fmt.Sprint(got) != fmt.Sprint(vals) {
				t.Errorf("%s %s: read %v, wrote %v", dt, name, got, vals)
			}
		}
	}
}
