package onnx_test

import (
	"context"
	"fmt"
	"testing"

	"tensorscope/formats/onnx/onnxtest"
	"tensorscope/tensor"
)

// TestQuantisedWeightsGetTheirScales: an int8 weight dequantised per
// channel by DequantizeLinear, and a uint8 weight of a QLinearConv
// quantised per tensor, carry scale and zero point, and dequantise to the
// hand-computed values.
func TestQuantisedWeightsGetTheirScales(t *testing.T) {
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{
		Nodes: []onnxtest.Node{
			{Op: "DequantizeLinear", Name: "dq", Inputs: []string{"w_q", "w_scale", "w_zp"}, Outputs: []string{"w"},
				Attrs: []onnxtest.Attr{{Name: "axis", Type: 2, I: 0}}},
			{Op: "QLinearConv", Name: "qconv", Inputs: []string{"x", "x_scale", "x_zp", "k", "k_scale", "k_zp", "y_scale", "y_zp"}, Outputs: []string{"y"}},
		},
		Initializers: []onnxtest.Tensor{
			{Name: "w_q", DataType: 3, Dims: []int64{2, 2}, Raw: []byte{10, 0xF6, 4, 6}}, // int8 10, -10, 4, 6
			{Name: "w_scale", DataType: 1, Dims: []int64{2}, Raw: onnxtest.Float32s(0.5, 0.25)},
			{Name: "w_zp", DataType: 3, Dims: []int64{2}, Raw: []byte{0, 2}},
			{Name: "k", DataType: 2, Dims: []int64{1, 1, 1, 2}, Raw: []byte{130, 126}},
			{Name: "k_scale", DataType: 1, Dims: []int64{}, Raw: onnxtest.Float32s(0.125)},
			{Name: "k_zp", DataType: 2, Dims: []int64{}, Raw: []byte{128}},
		},
		Inputs: []onnxtest.ValueInfo{{Name: "x", ElemType: 2, Dims: []any{1, 1, 1, 2}}},
	}}
	doc, err := decodeBytes(t, m.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"w_q": "[5 -5 0.5 1]", "k": "[0.25 -0.25]"} {
		e := doc.Tensor(name)
		if e.Quant == nil {
			t.Fatalf("%s has no quantisation", name)
		}
		x, err := e.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		d, err := tensor.Dequantize(context.Background(), x, e.Quant.Scales, e.Quant.ZeroPoints, e.Quant.Axis)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, d.Len())
		if err := d.ReadFloat64s(0, got); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != want {
			t.Errorf("%s dequantised: %v, want %v (quant %+v)", name, got, want, *e.Quant)
		}
	}
	if doc.Tensor("w_scale").Quant != nil {
		t.Error("the scale itself is marked quantised")
	}
}
