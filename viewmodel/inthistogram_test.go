package viewmodel

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

func i32Entry(name string, values []int32) *formats.TensorEntry {
	b := make([]byte, 4*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	shape := []int{len(values)}
	e := &formats.TensorEntry{Name: name, DType: tensor.Int32, Shape: shape, NBytes: int64(len(b))}
	e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.FromBytes(b, tensor.Int32, shape) })
	return e
}

func TestIntegerLabelsGetOneBinPerValue(t *testing.T) {
	labels := make([]int32, 10000)
	for i := range labels {
		labels[i] = int32(i%10) - 3 // -3..6
	}
	in, q, _ := newTestInspector()
	in.Show(0, i32Entry("labels", labels))
	drain(t, q, in)
	h, err := in.Histogram()
	if err != nil || h == nil {
		t.Fatalf("histogram %v, %v", h, err)
	}
	if len(h.Counts) != 10 {
		t.Fatalf("%d bins for 10 distinct labels", len(h.Counts))
	}
	for k, c := range h.Counts {
		if c != 1000 {
			t.Errorf("bin %d (value %d) counts %d, want 1000", k, k-3, c)
		}
	}
	if !in.OneBinPerValue() || !strings.HasPrefix(in.HistogramNote(), "one bin per value, -3 to 6") {
		t.Errorf("note %q", in.HistogramNote())
	}
}

func TestWideIntegersAndFloatsKeepTheirBins(t *testing.T) {
	wide := make([]int32, 2000)
	for i := range wide {
		wide[i] = int32(i * 7)
	}
	in, q, _ := newTestInspector()
	in.Show(0, i32Entry("ids", wide))
	drain(t, q, in)
	if h, _ := in.Histogram(); h == nil || len(h.Counts) != DefaultHistBins || in.OneBinPerValue() {
		t.Errorf("integers spanning 14000 values: %d bins (one per value %v), want %d", len(h.Counts), in.OneBinPerValue(), DefaultHistBins)
	}
	in.Show(1, f32Entry("w", []int{4, 4}, seq(16)))
	drain(t, q, in)
	if h, _ := in.Histogram(); h == nil || len(h.Counts) != DefaultHistBins {
		t.Errorf("floats: %d bins", len(h.Counts))
	}
}
