package tensor

import (
	"context"
	"math"
	"testing"
)

// TestFakeQuantize checks QuantizeLinear then DequantizeLinear on float
// values against hand-computed results: rounding half to even, the zero
// point, saturation at both ends of the target type, infinities, per
// channel, and the refusals.
func TestFakeQuantize(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		vals   []float32
		shape  []int
		scales []float64
		zps    []int64
		axis   int
		target DType
		want   []float64
	}{
		{"int8, halves to even, saturated", []float32{0.26, -0.74, 100, 0.75, 0.25, -100}, []int{6},
			[]float64{0.5}, nil, -1, Int8, []float64{0.5, -0.5, 63.5, 1, 0, -64}},
		{"uint8 with zero point 128", []float32{-20, 0.0625, 0.1875, 20}, []int{4},
			[]float64{0.125}, []int64{128}, -1, Uint8, []float64{-16, 0, 0.25, 15.875}},
		{"int4", []float32{3.9, -9, 8}, []int{3}, []float64{1}, nil, -1, Int4, []float64{4, -8, 7}},
		{"infinities saturate", []float32{float32(math.Inf(1)), float32(math.Inf(-1))}, []int{2},
			[]float64{2}, []int64{0}, -1, Int8, []float64{254, -256}},
		{"per channel along axis 0", []float32{1.4, 2.6, 0.3, -0.1}, []int{2, 2},
			[]float64{1, 0.25}, []int64{0, 0}, 0, Int8, []float64{1, 3, 0.25, 0}},
	}
	for _, c := range cases {
		b := make([]byte, 4*len(c.vals))
		for i, v := range c.vals {
			putF32(b[4*i:], v)
		}
		x, err := FromBytes(b, Float32, c.shape)
		if err != nil {
			t.Fatal(err)
		}
		got, err := FakeQuantize(ctx, x, c.scales, c.zps, c.axis, c.target)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if vals := naiveValues(got); got.DType() != Float32 || !equalFloats(vals, c.want) {
			t.Errorf("%s: %s %v, want float32 %v", c.name, got.DType(), vals, c.want)
		}
	}
	x, _ := FromBytes(make([]byte, 4), Float32, []int{1})
	if _, err := FakeQuantize(ctx, x, []float64{1}, nil, -1, Float16); err == nil {
		t.Error("fake-quantising to float16 succeeds")
	}
	q, _ := FromBytes([]byte{1}, Int8, []int{1})
	if _, err := FakeQuantize(ctx, q, []float64{1}, nil, -1, Int8); err == nil {
		t.Error("fake-quantising an int8 tensor succeeds")
	}
}
