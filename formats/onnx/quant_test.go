package onnx_test

import (
	"context"
	"fmt"
	"testing"

	"tensorscope/formats"
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

// TestFakeQuantWeightIsMarked: a float weight that a QuantizeLinear
// quantises and a DequantizeLinear restores (QDQ "fake-quant") carries the
// QuantizeLinear's scales, zero points and integer type: per channel along
// its axis attribute with an int8 zero point, per tensor without a zero
// point (uint8, as onnx.proto says). Its values fake-quantise to the
// hand-computed ones.
func TestFakeQuantWeightIsMarked(t *testing.T) {
	m := onnxtest.Model{IRVersion: 8, Graph: onnxtest.Graph{
		Nodes: []onnxtest.Node{
			{Op: "QuantizeLinear", Name: "q", Inputs: []string{"w", "w_scale", "w_zp"}, Outputs: []string{"w_q"},
				Attrs: []onnxtest.Attr{{Name: "axis", Type: 2, I: 0}}},
			{Op: "DequantizeLinear", Name: "dq", Inputs: []string{"w_q", "w_scale", "w_zp"}, Outputs: []string{"w_dq"},
				Attrs: []onnxtest.Attr{{Name: "axis", Type: 2, I: 0}}},
			{Op: "MatMul", Name: "mm", Inputs: []string{"x", "w_dq"}, Outputs: []string{"y"}},
			{Op: "QuantizeLinear", Name: "q2", Inputs: []string{"v", "v_scale"}, Outputs: []string{"v_q"}},
			{Op: "DequantizeLinear", Name: "dq2", Inputs: []string{"v_q", "v_scale"}, Outputs: []string{"v_dq"}},
		},
		Initializers: []onnxtest.Tensor{
			{Name: "w", DataType: 1, Dims: []int64{2, 2}, Raw: onnxtest.Float32s(1.2, -0.3, 0.3, 9)},
			{Name: "w_scale", DataType: 1, Dims: []int64{2}, Raw: onnxtest.Float32s(0.5, 0.25)},
			{Name: "w_zp", DataType: 3, Dims: []int64{2}, Raw: []byte{0, 0}},
			{Name: "v", DataType: 1, Dims: []int64{3}, Raw: onnxtest.Float32s(-1, 0.75, 1000)},
			{Name: "v_scale", DataType: 1, Dims: []int64{}, Raw: onnxtest.Float32s(0.5)},
		},
		Inputs: []onnxtest.ValueInfo{{Name: "x", ElemType: 1, Dims: []any{int64(1), int64(2)}}},
	}}
	doc, err := decodeBytes(t, m.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, quant, values string
	}{
		// 1.2/0.5 = 2.4 → 2; -0.3/0.5 → -1; 0.3/0.25 = 1.2 → 1; 9/0.25 = 36.
		{"w", "[0.5 0.25] [0 0] axis 0 int8", "[1 -0.5 0.25 9]"},
		// uint8: -2 saturates to 0, 1.5 → 2, 2000 to 255.
		{"v", "[0.5] [] axis -1 uint8", "[0 1 127.5]"},
	} {
		e := doc.Tensor(c.name)
		if e.Quant == nil {
			t.Fatalf("%s is not marked quantised", c.name)
		}
		q := e.Quant
		if got := fmt.Sprintf("%v %v axis %d %s", q.Scales, q.ZeroPoints, q.Axis, q.Target); got != c.quant {
			t.Errorf("%s: quant %s, want %s", c.name, got, c.quant)
		}
		x, err := e.Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		fq, err := tensor.FakeQuantize(context.Background(), x, q.Scales, q.ZeroPoints, q.Axis, q.Target)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]float64, fq.Len())
		if err := fq.ReadFloat64s(0, got); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != c.values {
			t.Errorf("%s fake-quantised: %v, want %s", c.name, got, c.values)
		}
	}
	for _, name := range []string{"w_scale", "w_zp", "v_scale"} {
		if e := doc.Tensor(name); e.Quant != nil || e.Role != formats.RoleConstant {
			t.Errorf("parameter %s: role %s, quant %v; want a constant, not quantised", name, e.Role, e.Quant)
		}
	}
}
