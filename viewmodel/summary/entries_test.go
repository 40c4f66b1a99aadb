package summary

import (
	"context"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// Compute reads each tensor from the first entry of its name, as
// Document.Tensor finds it, also when a later entry repeats the name.
func TestComputeReadsTheFirstEntryOfAName(t *testing.T) {
	entry := func(name string, v float32) *formats.TensorEntry {
		x, err := tensor.FromFloat32s([]float32{v, v}, []int{2})
		if err != nil {
			t.Fatal(err)
		}
		e := &formats.TensorEntry{Name: name, DType: tensor.Float32, Shape: []int{2}, NBytes: 8}
		e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return x, nil })
		return e
	}
	doc := &formats.Document{Tensors: []*formats.TensorEntry{entry("a", 1), entry("b", 2), entry("a", 3)}}
	m := New(doc)
	if err := m.Compute(context.Background(), doc, nil, nil); err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{1, 2, 1} {
		if got := m.Tensors[i].Summary.Max; got != want {
			t.Errorf("tensor %d (%s): max %v, want %v", i, m.Tensors[i].Name, got, want)
		}
	}
}
