package formats

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"tensorscope/tensor"
)

// chunks collects TensorChunks' output and counts its calls.
func chunks(t *testing.T, x *tensor.Tensor) ([]byte, int) {
	t.Helper()
	var out []byte
	calls := 0
	if err := TensorChunks(x, func(c []byte) error { out = append(out, c...); calls++; return nil }); err != nil {
		t.Fatal(err)
	}
	return out, calls
}

func iota32(t *testing.T, shape ...int) *tensor.Tensor {
	t.Helper()
	n, _ := tensor.NumElements(shape)
	b := make([]byte, 4*n)
	for i := range n {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(i), byte(i>>8), byte(i>>16), byte(i>>24)
	}
	x, err := tensor.FromBytes(b, tensor.Int32, shape)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestTensorChunksViews compares TensorChunks with the tensor core's own
// row-major gather over contiguous tensors and strided views.
func TestTensorChunksViews(t *testing.T) {
	must := func(x *tensor.Tensor, err error) *tensor.Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	base := iota32(t, 4, 5, 6)
	big := iota32(t, 300, 300)
	cases := map[string]*tensor.Tensor{
		"contiguous":   base,
		"scalar":       iota32(t),
		"permuted":     must(base.Permute([]int{2, 0, 1})),
		"sliced":       must(base.Slice(1, 1, 3)),
		"sliced inner": must(base.Slice(2, 2, 3)),
		"selected":     must(base.Select(0, 2)),
		"transposed":   must(big.Permute([]int{1, 0})), // > 64 KiB gathered: several flushes
		"row block":    must(big.Slice(0, 10, 200)),
	}
	for name, x := range cases {
		got, calls := chunks(t, x)
		want, err := x.ContiguousBytes(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: TensorChunks differs from ContiguousBytes", name)
		}
		if x.IsContiguous() && calls != 1 {
			t.Errorf("%s: contiguous tensor passed in %d chunks, want 1 (no copy)", name, calls)
		}
	}
	if _, calls := chunks(t, cases["transposed"]); calls < 5 {
		t.Errorf("transposed 360 KB view passed in %d chunks; the gather buffer is 64 KiB", calls)
	}
	empty := iota32(t, 3, 0)
	if got, calls := chunks(t, empty); len(got) != 0 || calls != 0 {
		t.Errorf("empty tensor gave %d bytes in %d calls", len(got), calls)
	}
	stop := errors.New("stop")
	if err := TensorChunks(cases["transposed"], func([]byte) error { return stop }); err != stop {
		t.Errorf("fn's error not returned: %v", err)
	}
}
