package cli

import (
	"bytes"
	"context"
	"testing"

	"tensorscope/formats"
	"tensorscope/tensor"
)

// The streamed Tensors table is byte for byte what tabwriter prints, for
// plain cells, wide Unicode names, and cells holding tabwriter's own
// control characters (which take the tabwriter path).
func TestTensorTableMatchesTabwriter(t *testing.T) {
	entry := func(name string, shape []int, off int64, attrs ...formats.Attr) *formats.TensorEntry {
		return &formats.TensorEntry{Name: name, DType: tensor.Float32, Shape: shape, Offset: off, NBytes: 4 * int64(len(shape)), Role: formats.RoleWeight, Attrs: attrs}
	}
	cases := map[string][]*formats.TensorEntry{
		"plain": {entry("a", []int{2, 3}, 0), entry("longer.name.weight", []int{1}, -1, formats.Attr{Name: "descr", Value: "<f4"}),
			entry("b", nil, 123456789, formats.Attr{Name: "n", Value: int64(7)}, formats.Attr{Name: "list", Value: []int64{1, 2}})},
		"unicode":           {entry("größe", []int{4}, 8), entry("名前", []int{1, 1, 1}, 0), entry("x", []int{0}, 16)},
		"tab in name":       {entry("a\tb", []int{2}, 0), entry("c", []int{3}, 4)},
		"newline in name":   {entry("a\nb", []int{2}, 0), entry("c", []int{3}, 4)},
		"tab in attr name":  {entry("a", []int{2}, 0, formats.Attr{Name: "x\ty", Value: int64(1)}), entry("c", []int{3}, 4)},
		"newline in note":   {{Name: "a", Note: "one\ntwo", Offset: -1}, entry("c", []int{3}, 4)},
		"form feed in enum": {entry("a", []int{2}, 0, formats.Attr{Name: "e", Value: formats.Enum{Value: 1, Name: "x\fy"}}), entry("c", []int{3}, 4)},
		"text tensor":       {{Name: "s", TypeName: "<U5", Shape: []int{3}, Offset: 128, Role: formats.RoleData}},
		"details": {
			entry("q", []int{4, 4}, 64, formats.Attr{Name: "f", Value: 0.5}, formats.Attr{Name: "b", Value: true},
				formats.Attr{Name: "s", Value: "quote\"d"}, formats.Attr{Name: "e", Value: formats.Enum{Value: 2, Name: "MAX"}}),
			{Name: "quantised", DType: tensor.Int8, Shape: []int{8}, Offset: 0, NBytes: 8, Quant: &formats.Quant{Scales: []float64{1, 2}, Axis: 0}},
			{Name: "noted", Note: "external data missing", Offset: -1},
			{Name: "nothing", Offset: -1, Attrs: []formats.Attr{{Name: "n", Value: nil}}},
		},
	}
	withData := entry("loaded", []int{1}, 0)
	withData.SetLoader(func(context.Context) (*tensor.Tensor, error) { return nil, nil })
	text := &formats.TensorEntry{Name: "words", TypeName: "<U3", Shape: []int{2}, Offset: 10}
	text.SetText(func(int) (string, error) { return "", nil })
	cases["data and text"] = []*formats.TensorEntry{withData, text, entry("x", []int{1}, 0)}
	for name, tensors := range cases {
		var got, want bytes.Buffer
		writeTensorTable(&got, tensors)
		writeTensorTableTabwriter(&want, tensors)
		if got.String() != want.String() {
			t.Errorf("%s: streamed table\n%q\ntabwriter\n%q", name, got.String(), want.String())
		}
	}
}
