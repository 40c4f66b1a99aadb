package viewmodel

import (
	"context"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

func TestValueCellsShowTheStoredIntegerAndFitTheirValues(t *testing.T) {
	in, q, _ := newTestInspector()
	raw := []byte{0, 10, 20, 255}
	qe := &formats.TensorEntry{Name: "q", DType: tensor.Uint8, Shape: []int{4},
		Quant: &formats.Quant{Scales: []float64{0.5}, ZeroPoints: []int64{10}}}
	qe.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.FromBytes(raw, tensor.Uint8, []int{4}) })
	in.Show(0, qe)
	drain(t, q, in)
	if got := in.ValueCellText(0, 3); got != "255" {
		t.Errorf("stored cell %q", got)
	}
	in.SetDequantised(true)
	drain(t, q, in)
	if got := in.ValueCellText(0, 3); got != "122.5 ⟨255⟩" {
		t.Errorf("dequantised cell %q, want the value and the stored integer", got)
	}
	if n := in.ValueCellChars(); n < len([]rune("-1.1754944e-38 ⟨255⟩")) {
		t.Errorf("cells of %d characters cannot hold a float32 and a uint8", n)
	}
	in.Show(1, f32Entry("w", []int{2, 2}, []float32{-1.1754944e-38, 3.4028235e38, 1, 0}))
	drain(t, q, in)
	for c := 0; c < 2; c++ {
		if s := in.ValueCellText(0, c); len(s) > in.ValueCellChars() {
			t.Errorf("%q is wider than the %d characters of a float32 cell", s, in.ValueCellChars())
		}
	}
}
