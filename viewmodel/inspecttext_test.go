package viewmodel

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// TestInspectorShowsText lays a 2×3 array of strings out in the Values
// table, read through the entry's text accessor.
func TestInspectorShowsText(t *testing.T) {
	in, q, _ := newTestInspector()
	e := &formats.TensorEntry{Name: "labels", TypeName: "<U3", Shape: []int{2, 3}, Offset: -1}
	e.SetText(func(i int) (string, error) { return fmt.Sprintf("s%d", i), nil })
	in.Show(0, e)
	drain(t, q, in)
	if in.Err() != nil || !in.ShowsText() {
		t.Fatalf("err %v, text %v", in.Err(), in.ShowsText())
	}
	if r, c := in.PlaneSize(); r != 2 || c != 3 {
		t.Fatalf("plane %d×%d", r, c)
	}
	if got := in.ValueText(1, 2); got != "s5" {
		t.Errorf("value (1,2) = %q", got)
	}
}

// TestInspectorComplexParts switches a complex64 tensor between magnitude,
// real and imaginary parts; statistics follow.
func TestInspectorComplexParts(t *testing.T) {
	in, q, _ := newTestInspector()
	vals := [][2]float32{{3, 4}, {-1, 0}, {0, -2}}
	b := make([]byte, 8*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[8*i:], math.Float32bits(v[0]))
		binary.LittleEndian.PutUint32(b[8*i+4:], math.Float32bits(v[1]))
	}
	e := &formats.TensorEntry{Name: "z", DType: tensor.Complex64, Shape: []int{3}}
	e.SetLoader(func(context.Context) (*tensor.Tensor, error) { return tensor.FromBytes(b, tensor.Complex64, []int{3}) })
	in.Show(0, e)
	drain(t, q, in)
	if in.Err() != nil || !in.IsComplex() || in.ComplexPart() != tensor.Magnitude {
		t.Fatalf("err %v, part %v", in.Err(), in.ComplexPart())
	}
	for _, c := range []struct {
		part     tensor.ComplexPart
		min, max float64
	}{{tensor.Magnitude, 1, 5}, {tensor.RealPart, -1, 3}, {tensor.ImagPart, -2, 4}} {
		in.SetComplexPart(c.part)
		drain(t, q, in)
		st, ok := in.Stats()
		if !ok || st.Min != c.min || st.Max != c.max {
			t.Errorf("%v: stats %+v", c.part, st)
		}
	}
}
