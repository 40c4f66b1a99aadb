package tflite_test

import (
	"context"
	"slices"
	"testing"

	"tensorscope/formats"
	"tensorscope/formats/tflite/tflitetest"
	"tensorscope/tensor"
)

// perChannelModel is a CONV_2D whose int8 weight [3, 1, 1, 2] is quantised
// per output channel (quantized_dimension 0): scales 0.5, 0.25, 2 and
// zero points 0, 1, -2; stride 2×1 and a fused RELU6.
func perChannelModel() *tflitetest.Model {
	w := []byte{2, 0xfe /* -2 */, 5, 9, 0x7f /* 127 */, 0x80 /* -128 */}
	return &tflitetest.Model{
		Codes:   []int32{tflitetest.Conv2D},
		Buffers: [][]byte{nil, w},
		Subgraphs: []tflitetest.Subgraph{{Name: "main", Inputs: []int32{0}, Outputs: []int32{2},
			Tensors: []tflitetest.Tensor{
				{Name: "input", Type: tflitetest.Int8, Shape: []int32{1, 4, 4, 2}, Scales: []float32{0.1}, ZeroPoints: []int64{0}},
				{Name: "conv/weight", Type: tflitetest.Int8, Shape: []int32{3, 1, 1, 2}, Buffer: 1,
					Scales: []float32{0.5, 0.25, 2}, ZeroPoints: []int64{0, 1, -2}, QuantDim: 0},
				{Name: "output", Type: tflitetest.Int8, Shape: []int32{1, 2, 4, 3}},
			},
			Ops: []tflitetest.Op{{Code: 0, Inputs: []int32{0, 1, -1}, Outputs: []int32{2}, Stride: [2]int32{2, 1}}},
		}},
	}
}

func TestPerChannelDequantisationByHand(t *testing.T) {
	doc, err := decodeBytes(perChannelModel().Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Tensors) != 1 {
		t.Fatalf("%d tensors listed, want the weight only", len(doc.Tensors))
	}
	e := doc.Tensors[0]
	q := e.Quant
	if e.Name != "conv/weight" || e.DType != tensor.Int8 || q == nil || q.Axis != 0 ||
		!slices.Equal(q.Scales, []float64{0.5, 0.25, 2}) || !slices.Equal(q.ZeroPoints, []int64{0, 1, -2}) {
		t.Fatalf("weight %+v quant %+v", e, q)
	}
	x, err := e.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	d, err := tensor.Dequantize(context.Background(), x, q.Scales, q.ZeroPoints, q.Axis)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float64, d.Len())
	if err := d.ReadFloat64s(0, got); err != nil {
		t.Fatal(err)
	}
	// Channel 0: 0.5·(2−0), 0.5·(−2−0); channel 1: 0.25·(5−1), 0.25·(9−1);
	// channel 2: 2·(127+2), 2·(−128+2).
	want := []float64{1, -1, 1, 2, 258, -252}
	if !slices.Equal(got, want) {
		t.Errorf("dequantised %v, want %v", got, want)
	}
	n := doc.Graph.Nodes[0]
	m := n.Meaning
	if n.Op != "CONV_2D" || m.Category != formats.CategoryConvolution || !slices.Equal(m.Kernel, []int{1, 1}) ||
		!slices.Equal(m.Stride, []int{2, 1}) || m.OutChannels != 3 || m.InChannels != 2 || m.FusedActivation != "relu6" {
		t.Errorf("CONV_2D meaning %+v", m)
	}
}

func TestBuffersOutsideTheFlatbuffer(t *testing.T) {
	m := perChannelModel()
	m.Large = true
	data := m.Bytes()
	doc, err := decodeBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	e := doc.Tensor("conv/weight")
	if e == nil || !e.HasData() || e.NBytes != 6 || e.Offset < int64(len(data))-6-16 {
		t.Fatalf("weight %+v in a file of %d bytes", e, len(data))
	}
	x, err := e.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float64, x.Len())
	if err := x.ReadFloat64s(0, got); err != nil {
		t.Fatal(err)
	}
	if want := []float64{2, -2, 5, 9, 127, -128}; !slices.Equal(got, want) {
		t.Errorf("values %v, want %v", got, want)
	}
}
